"""Deterministic portfolio generator for the PMS simulator.

Everything served by the simulator (report files, RPX SOAP, Yardi SOAP) and the
ground truth are derived from the objects built here.  Money is held as integer
cents everywhere; formatting happens at the edges.
"""

import datetime as dt
import json
import os
import random

DAY = dt.timedelta(days=1)

# --------------------------------------------------------------------------------------
# static tables

PMC_ID = "4248314"
MANAGEMENT_COMPANY = "Kairoi"

# used when report_definitions.json is not available (same content as properties.md)
RP_FALLBACK = [
    ("kalaco", "Kalaco", "5339721"), ("7_east", "7 East", "5481703"),
    ("block_44", "Block 44", "5473254"), ("curate_orchard", "Curate at Orchard Town Center", "4682517"),
    ("eden_keller_ranch", "Eden Keller Ranch", "5536209"), ("harvest", "Harvest", "5507303"),
    ("heights_interlocken", "Heights at Interlocken", "5558216"), ("luna", "Luna", "5590740"),
    ("nexus_east", "Nexus East", "5472172"), ("park_17", "Park 17", "4481243"),
    ("parkside", "Parkside at Round Rock", "5536211"), ("pearl_lantana", "Pearl Lantana", "5481704"),
    ("slate", "Slate", "5486880"), ("sloane", "Sloane", "5486881"), ("stonewood", "Stonewood", "5481705"),
    ("ten50", "Ten50", "5581218"), ("the_alcott", "The Alcott", "4996967"),
    ("the_broadleaf", "The Broadleaf", "5286092"), ("the_confluence", "The Confluence", "4832865"),
    ("links_plum_creek", "The Links at Plum Creek", "5558220"), ("the_pearl", "thePearl", "5114464"),
    ("the_quinci", "theQuinci", "5286878"), ("aspire_7th_grant", "Aspire 7th and Grant", "4779341"),
    ("edison_rino", "Edison at RiNo", "4248319"), ("ridian", "Ridian", "5446271"),
]

# the five properties with known size / physical occupancy (properties.md)
KNOWN_SIZES = {
    "nexus_east": (352, 0.9574),
    "aspire_7th_grant": (178, 0.9326),
    "parkside": (432, 0.8681),
    "edison_rino": (277, 0.8592),
    "ridian": (123, 0.5691),
}

YARDI_PROPS = [
    ("yp_riverwalk", "Riverwalk Commons", "rvwalk01", "Austin", "TX", "78704"),
    ("yp_cedar_bluff", "Cedar Bluff Apartments", "cdrbluf1", "Knoxville", "TN", "37923"),
    ("yp_magnolia_yards", "Magnolia Yards", "magyrd01", "Houston", "TX", "77007"),
    ("yp_juniper_flats", "Juniper Flats", "junipr01", "Denver", "CO", "80211"),
    ("yp_harbor_point", "Harbor Point Residences", "hrbrpt01", "Tampa", "FL", "33602"),
]

CITIES = [("Dallas", "TX", "75208", "Dallas"), ("Austin", "TX", "78701", "Travis"),
          ("Denver", "CO", "80205", "Denver"), ("Round Rock", "TX", "78664", "Williamson"),
          ("Broomfield", "CO", "80021", "Broomfield"), ("Fort Worth", "TX", "76102", "Tarrant"),
          ("Westminster", "CO", "80031", "Adams"), ("Kyle", "TX", "78640", "Hays")]
STREETS = ["Main St", "Elm St", "Lantana Dr", "Grant St", "Larimer St", "Keller Pkwy", "Orchard Pkwy",
           "Interlocken Blvd", "Plum Creek Dr", "Commerce St", "Riverside Dr", "Congress Ave"]

# code, name, group, beds, baths, sqft, base rent ($), mix weight
FLOORPLAN_CATALOG = [
    ("S1", "Studio", "Studio", 0, 1, 530, 1240, 1),
    ("A1", "One Bedroom, One Bath", "1x1", 1, 1, 690, 1450, 4),
    ("A2", "One Bedroom Plus Den", "1x1", 1, 1, 785, 1575, 2),
    ("B1", "Two Bedroom, Two Bath", "2x2", 2, 2, 1085, 1960, 3),
    ("B2", "Two Bedroom, One Bath", "2x1", 2, 1, 965, 1790, 1),
    ("C1", "Three Bedroom, Two Bath", "3x2", 3, 2, 1320, 2460, 1),
]

FIRST_NAMES = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
               "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah",
               "Carlos", "Karen", "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra",
               "Donald", "Ashley", "Steven", "Kimberly", "Andrew", "Emily", "Joshua", "Donna", "Kevin",
               "Michelle", "Brian", "Carol", "Priya", "Amanda", "Wei", "Melissa", "Luis", "Deborah", "Omar",
               "Stephanie", "Ethan", "Rebecca", "Noah", "Laura", "Mateo", "Sharon", "Aiden", "Cynthia",
               "Jamal", "Kathleen", "Hiroshi", "Amy", "Sofia", "Angela", "Diego", "Olivia", "Chloe", "Zoe"]
LAST_NAMES = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
              "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor",
              "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark",
              "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres",
              "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell",
              "Mitchell", "Carter", "Roberts", "O'Brien", "Patel", "Kim", "Chen", "Okafor", "Schmidt",
              "Novak", "Rossi", "Dubois", "Larsen", "Ito", "Haddad", "Kowalski", "Silva", "Murphy"]
AGENTS = ["Alex Rivera", "Jordan Blake", "Taylor Brooks", "Morgan Lee", "Casey Nguyen", "Riley Adams",
          "Jamie Patel", "Avery Chen"]
AD_SOURCES = ["Property Website", "Apartments.com", "Zillow", "Google", "Drive By", "Resident Referral",
              "ApartmentList", "Facebook"]

# internal charge codes -> (RealPage trans code, Yardi charge code, description, category)
CHARGE_CODES = {
    "RENT": ("RENT", "rent", "Rent", "rent"),
    "WATER": ("WATER", "water", "Water", "utilities"),
    "SEWER": ("SEWER", "sewer", "Sewer", "utilities"),
    "TRASH": ("TRASH", "trash", "Trash", "utilities"),
    "PEST": ("PEST", "pest", "Pest Control", "other"),
    "PARKING": ("PARKING", "parking", "Parking", "other"),
    "LATEFEE": ("LATEFEE", "latefee", "Late Fee", "other"),
    "CLEANING": ("CLEANING", "clean", "Cleaning Charge", "other"),
    "DAMAGE": ("DAMAGE", "damage", "Damages", "other"),
}
GL_ACCOUNTS = {"RENT": "4000-0000", "WATER": "4410-0001", "SEWER": "4410-0002", "TRASH": "4410-0003",
               "PEST": "4420-0000", "PARKING": "4300-0000", "LATEFEE": "4500-0001", "CLEANING": "4510-0000",
               "DAMAGE": "4520-0000"}

STATUSES = ("occupied", "ntv", "ntv_leased", "vacant_leased", "vacant", "model", "down")

EVENT_KINDS = ("lead", "tour", "application", "approval", "lease_signed", "application_denied",
               "application_canceled", "notice", "renewal", "move_in", "move_out")

LEDGER_MONTHS = 24          # months of posted charges/payments, including the as-of month
ACTIVITY_DAYS = 210         # leasing activity horizon (days before the property date)
LATE_FEE_CENTS = 7500


# --------------------------------------------------------------------------------------
# date helpers

def add_months(d, n):
    m = d.month - 1 + n
    y = d.year + m // 12
    m = m % 12 + 1
    day = min(d.day, days_in_month(y, m))
    return dt.date(y, m, day)


def days_in_month(y, m):
    if m == 12:
        return 31
    return (dt.date(y, m + 1, 1) - dt.date(y, m, 1)).days


def month_start(d):
    return dt.date(d.year, d.month, 1)


def month_end(d):
    return dt.date(d.year, d.month, days_in_month(d.year, d.month))


def month_key(d):
    return "%04d-%02d" % (d.year, d.month)


def iso(d):
    return d.isoformat() if d else None


def money(cents):
    """cents -> dollars as a float rounded to cents (for JSON)."""
    return round(cents / 100.0, 2)


class Rng(random.Random):
    """random.Random with cheaper (still deterministic) integer helpers."""

    def randint(self, a, b):
        return a + int(self.random() * (b - a + 1))

    def randrange(self, n):
        return int(self.random() * n)

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]


# --------------------------------------------------------------------------------------
# model objects

class Floorplan:
    __slots__ = ("code", "name", "group", "beds", "baths", "sqft", "base_rent", "units", "fp_id")

    def __init__(self, fp_id, code, name, group, beds, baths, sqft, base_rent):
        self.fp_id, self.code, self.name, self.group = fp_id, code, name, group
        self.beds, self.baths, self.sqft, self.base_rent = beds, baths, sqft, base_rent
        self.units = []


class Unit:
    __slots__ = ("id", "number", "building", "floor", "fp", "sqft", "market_rent", "status", "made_ready",
                 "vacant_since", "residencies", "current", "future", "designation")

    def __init__(self, uid, number, building, floor, fp, sqft, market_rent):
        self.id, self.number, self.building, self.floor = uid, number, building, floor
        self.fp, self.sqft, self.market_rent = fp, sqft, market_rent
        self.status = "vacant"
        self.made_ready = None      # date or None
        self.vacant_since = None    # date of the last move-out (vacant units)
        self.residencies = []       # chronological
        self.current = None         # residency in possession now
        self.future = None          # signed future residency (pre-leased)
        self.designation = "Conventional"

    @property
    def is_vacant(self):
        return self.status in ("vacant_leased", "vacant", "model", "down")

    @property
    def is_occupied(self):
        return self.status in ("occupied", "ntv", "ntv_leased")

    @property
    def is_leased(self):
        return self.status in ("occupied", "ntv_leased", "vacant_leased")

    @property
    def on_notice(self):
        return self.status in ("ntv", "ntv_leased")

    def days_vacant(self, as_of):
        # A unit never occupied (lease-up) is vacant since it was made ready (available).
        since = self.vacant_since or self.made_ready
        if since is None or not self.is_vacant:
            return None
        return (as_of - since).days


class Lease:
    __slots__ = ("id", "res", "start", "end", "rent", "_recurring", "total", "is_renewal", "signed", "applied",
                 "term", "prior", "next", "deposit", "mtm")

    @property
    def recurring(self):
        return self._recurring

    @recurring.setter
    def recurring(self, rec):
        self._recurring = rec
        self.total = sum(a for _, a in rec)

    def __init__(self, lid, res, start, end, rent, recurring, is_renewal, signed, applied, term):
        self.id, self.res, self.start, self.end, self.rent = lid, res, start, end, rent
        self.recurring = recurring      # list of (code, cents); RENT first
        self.is_renewal, self.signed, self.applied, self.term = is_renewal, signed, applied, term
        self.prior = None
        self.next = None
        self.deposit = 0
        self.mtm = False


class Residency:
    """One household's possession of one unit (RealPage household/ReshID, Yardi tenant code)."""
    __slots__ = ("id", "tcode", "unit", "first", "last", "members", "email", "phone", "move_in", "move_out",
                 "notice_given", "leases", "status", "behavior", "credit", "ad_source",
                 "agent", "member_ids", "deposit", "months", "extra_charges", "extra_payments", "charge_total",
                 "payment_total", "method", "_ledger")

    def __init__(self, rid, unit, first, last):
        self.id = rid
        self.tcode = "t%07d" % rid
        self.unit, self.first, self.last = unit, first, last
        self.members = []           # [(member_id, first, last, relationship)]
        self.email = self.phone = None
        self.move_in = self.move_out = self.notice_given = None
        self.leases = []
        self.status = "current"     # current | future | former
        self.behavior = "good"
        self.credit = 0             # unapplied payments (prepaid), cents
        self.ad_source = None
        self.agent = None
        self.member_ids = []
        self.deposit = 0
        self.months = []
        self.extra_charges = []
        self.extra_payments = []
        self.charge_total = self.payment_total = 0
        self.method = "ACH"
        self._ledger = None

    @property
    def name(self):
        return "%s, %s" % (self.last, self.first)

    def lease_on(self, d):
        cur = None
        for le in self.leases:
            if le.start <= d:
                cur = le
        return cur or (self.leases[0] if self.leases else None)

    def current_lease(self, as_of):
        return self.lease_on(as_of)

    def balance(self):
        """Net balance in cents (positive = owes, negative = prepaid credit)."""
        return self.charge_total - self.payment_total

    @property
    def has_postings(self):
        """Whether the household has a ledger: its generated months, or what the clock posted since (a household
        that moved in after the start has no months, only the payments the clock gave it)."""
        return bool(self.months or self.extra_charges or self.extra_payments)


def _lease_id_on(r, d):
    """The lease a posting the clock made on `d` was posted under: the one in force that day, as for the generated
    months. Not the household's newest: a renewal signed later does not rewrite the lease of postings made before it
    (serving them under the newest lease changed a December charge's lease to one that starts in May the day the
    renewal was signed, which a nightly ingest sees only at its weekly full pull)."""
    le = r.lease_on(d)
    return le.id if le else 0


def extra_posting_id(r, k, payment):
    """The transaction id of the household's k-th extra charge (or payment) posted by the clock or at move-out.
    The first five of each keep the ids they always had (base + 990 + k, base + 995 + k); later ones go to their own
    range: base + 995 + k ran into the next household's ids from the sixth payment on (a year of nights gave some
    households twenty), and RPX merges by TransactionID."""
    if k < 5:
        return r.id * 1000 + (995 if payment else 990) + k
    return EXTRA_ID_BASE + r.id * 1000 + (500 if payment else 0) + k


EXTRA_ID_BASE = 10 ** 12


class Event:
    __slots__ = ("date", "kind", "prospect", "unit", "res", "agent", "source", "notes")

    def __init__(self, date, kind, prospect=None, unit=None, res=None, agent=None, source=None, notes=""):
        self.date, self.kind, self.prospect, self.unit, self.res = date, kind, prospect, unit, res
        self.agent, self.source, self.notes = agent, source, notes


class Prospect:
    __slots__ = ("id", "first", "last", "email", "phone", "channel", "events", "res", "fp", "outcome",
                 "agent", "source", "desired_move_in", "desired_rent")

    def __init__(self, pid, first, last):
        self.id, self.first, self.last = pid, first, last
        self.events = []
        self.res = None
        self.fp = None
        self.outcome = "Active"


class Property:
    def __init__(self, pms, key, name, pms_id):
        self.pms, self.key, self.name, self.pms_id = pms, key, name, pms_id
        self.units, self.floorplans, self.buildings = [], [], []
        self.residencies, self.prospects, self.events = [], [], []
        self.rentable_items = []
        self.audit_exceptions = []
        self.multi_unit_persons = []
        self.address = None
        self.site_number = None

    @property
    def site_id(self):
        return self.pms_id


# --------------------------------------------------------------------------------------
# generation

def load_registry(path=None):
    """The 25 RealPage properties from report_definitions.json (if present) else the embedded table."""
    candidates = [path] if path else []
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "..", "..", "report_definitions.json"))
    for p in candidates:
        if p and os.path.exists(p):
            try:
                with open(p) as f:
                    cfg = json.load(f)
                props = [(x["key"], x["name"], str(x.get("site_id")))
                         for x in cfg.get("properties", []) if x.get("pms", "realpage") == "realpage"]
                if props:
                    return props
            except (ValueError, KeyError, OSError):
                pass
    return list(RP_FALLBACK)


class Generator:
    def __init__(self, seed, as_of, registry=None):
        self.seed = seed
        self.as_of = as_of
        self.win_start = add_months(month_start(as_of), -(LEDGER_MONTHS - 1))
        self.registry = registry or load_registry()
        self._dodge_days = {as_of - dt.timedelta(days=k) for k in (29, 30, 31)}
        # month table for the ledger window: (start, end, days, key, [start + k days for k in 0..30])
        self.months = []
        m = self.win_start
        while m <= as_of:
            me = month_end(m)
            self.months.append((m, me, me.day, month_key(m), [m + dt.timedelta(days=k) for k in range(31)]))
            m = add_months(m, 1)
        self.month_index = {mm[0]: i for i, mm in enumerate(self.months)}

    def dodge(self, d):
        """Move an activity date off the 29..31-days-ago boundary so 30-day windows are unambiguous."""
        while d in self._dodge_days:
            d -= dt.timedelta(days=3)
        return d

    def specs(self):
        """(pms, key, name, pms_id, index, city) for every property, in registry order."""
        out = [("realpage", key, name, site, i, None) for i, (key, name, site) in enumerate(self.registry)]
        for j, (key, name, code, city, state, zipc) in enumerate(YARDI_PROPS):
            out.append(("yardi", key, name, code, 100 + j, (city, state, zipc)))
        return out

    def build(self):
        return [self.gen_property(*spec) for spec in self.specs()]

    # ---------------------------------------------------------------- one property
    def gen_property(self, pms, key, name, pms_id, index, city=None):
        rng = Rng("%s:%s" % (self.seed, key))
        as_of = self.as_of
        p = Property(pms, key, name, pms_id)
        p.index = index
        p.id_base = (index + 1) * 1000000
        if city is None:
            c = CITIES[rng.randrange(len(CITIES))]
            city = (c[0], c[1], c[2])
            county = c[3]
        else:
            county = ""
        p.address = {"street": "%d %s" % (rng.randint(100, 9800), rng.choice(STREETS)),
                     "city": city[0], "state": city[1], "zip": city[2], "county": county}
        p.site_number = "%03d" % (index + 1)
        p.phone = "(%03d) 555-%04d" % (rng.randint(201, 989), rng.randint(0, 9999))

        known = KNOWN_SIZES.get(key)
        n_units = known[0] if known else rng.randint(100, 450)
        occ_target = known[1] if known else rng.uniform(0.885, 0.975)
        market = rng.uniform(0.82, 1.30)

        # floorplans
        cat = [FLOORPLAN_CATALOG[1], FLOORPLAN_CATALOG[3]]
        extra = [c for c in FLOORPLAN_CATALOG if c not in cat]
        rng.shuffle(extra)
        cat += extra[:rng.randint(1, 4)]
        cat.sort(key=lambda c: (c[3], c[4], c[0]))
        fps = []
        for k, (code, fname, group, beds, baths, sqft, rent, w) in enumerate(cat):
            fp = Floorplan(p.id_base + 100 + k, code, fname, group, beds, baths,
                           sqft + rng.randint(-25, 25), int(round(rent * market / 5.0)) * 5)
            fps.append(fp)
        p.floorplans = fps
        weights = [c[7] for c in cat]

        # buildings and units
        n_bldg = max(1, min(8, n_units // rng.randint(45, 70)))
        floors = rng.randint(3, 5)
        p.buildings = []
        for b in range(1, n_bldg + 1):
            p.buildings.append({"id": p.id_base + 10 + b, "number": "%02d" % b,
                                "address": "%d %s" % (rng.randint(100, 9800), rng.choice(STREETS))})
        per_bldg = -(-n_units // n_bldg)
        uid = p.id_base + 1000
        units = []
        fp_choices = rng.choices(fps, weights=weights, k=n_units)
        # keep every floorplan represented
        for k, fp in enumerate(fps):
            fp_choices[k] = fp
        fp_choices.sort(key=lambda f: (f.beds, f.baths, f.code))
        order = list(range(n_units))
        rng.shuffle(order)
        for i in range(n_units):
            fp = fp_choices[order[i]]
            b = i // per_bldg + 1
            j = i % per_bldg
            per_floor = -(-per_bldg // floors)
            floor = j // per_floor + 1
            num = "%d%d%02d" % (b, floor, j % per_floor + 1)
            premium = rng.choice((0, 0, 0, 10, 25, 25, 40, 60)) * 100
            mr = fp.base_rent * 100 + premium + (floor - 1) * 500
            u = Unit(uid + i, num, p.buildings[b - 1], floor, fp, fp.sqft, mr)
            fp.units.append(u)
            units.append(u)
        p.units = units

        # unit statuses
        n_model = 1 if n_units >= 150 else rng.randint(0, 1)
        n_down = rng.randint(0, 3)
        n_occ = int(round(n_units * occ_target))
        n_occ = min(n_occ, n_units - n_model - n_down)
        n_avail = n_units - n_occ - n_model - n_down
        n_ntv = int(round(n_occ * rng.uniform(0.04, 0.09)))
        n_ntv_l = int(round(n_ntv * rng.uniform(0.25, 0.55)))
        n_vl = int(round(n_avail * rng.uniform(0.25, 0.50)))
        statuses = (["model"] * n_model + ["down"] * n_down + ["ntv_leased"] * n_ntv_l +
                    ["ntv"] * (n_ntv - n_ntv_l) + ["occupied"] * (n_occ - n_ntv) +
                    ["vacant_leased"] * n_vl + ["vacant"] * (n_avail - n_vl))
        rng.shuffle(statuses)
        for u, s in zip(units, statuses):
            u.status = s
            if s == "model":
                u.designation = "Model"
            elif s == "down":
                u.designation = "Down"

        self.ids = {"res": p.id_base + 200000, "lease": p.id_base + 400000, "txn": p.id_base * 10,
                    "member": p.id_base + 600000, "prospect": p.id_base + 800000}
        for u in units:
            self.gen_unit_history(p, u, rng)
        for u in units:
            for r in u.residencies:
                p.residencies.append(r)
            if u.future:
                p.residencies.append(u.future)
        self.gen_rentable_items(p, rng)
        for r in p.residencies:
            self.gen_ledger(p, r, rng)
        self.gen_activity(p, rng)
        self.share_households(p)
        p.ids = self.ids    # the property's id counters, for the clock's new households and prospects (leasing.py)
        return p

    def share_households(self, p):
        """A few people rent two units: after everything else is generated, with an RNG of its own (seeded from the
        main seed), a handful of current households take the name, e-mail and phone of another current household of
        the same property. Nothing else is drawn differently, so the rest of the output is unchanged; the pairs are
        recorded in p.multi_unit_persons for the truth (debtors are grouped by person across units)."""
        rng = Rng("%s:%s:multi-unit" % (self.seed, p.key))
        current = [r for r in p.residencies if r.status == "current" and r.leases]
        owing = [r for r in current if r.charge_total - r.payment_total > 0]
        p.multi_unit_persons = []
        if len(current) < 6:
            return
        # Two pairs where both units owe (the person's debt adds up across units), one where either may.
        pool = owing[:] if len(owing) >= 4 else []
        rng.shuffle(pool)
        pairs = [(pool[0], pool[1]), (pool[2], pool[3])] if pool else []
        taken = {id(r) for pair in pairs for r in pair}
        rest = [r for r in current if id(r) not in taken]
        rng.shuffle(rest)
        pairs.append((rest[0], rest[1]))
        targets = {id(target) for _, target in pairs}
        converted = [pr for pr in p.prospects if pr.res is not None and id(pr.res) in targets]
        for source, target in pairs:
            target.first, target.last = source.first, source.last
            target.email, target.phone = source.email, source.phone
            if target.members:
                mid, _, _, rel = target.members[0]
                target.members[0] = (mid, source.first, source.last, rel)
            # A prospect converted into this household carries its name too (the leasing funnel names it).
            for pr in converted:
                if pr.res is target:
                    pr.first, pr.last, pr.email, pr.phone = source.first, source.last, source.email, source.phone
            p.multi_unit_persons.append({"name": source.name, "email": source.email, "phone": source.phone,
                                         "resident_ids": [str(source.id), str(target.id)],
                                         "tenant_codes": [source.tcode, target.tcode],
                                         "units": [source.unit.number, target.unit.number]})

    def next_id(self, kind):
        self.ids[kind] += 1
        return self.ids[kind]

    # ---------------------------------------------------------------- residents & leases
    def new_residency(self, p, u, rng):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        r = Residency(self.next_id("res"), u, first, last)
        r.email = "%s.%s%d@example.com" % (first.lower(), last.lower().replace("'", ""), rng.randint(1, 99))
        r.phone = "(%03d) 555-%04d" % (rng.randint(201, 989), rng.randint(0, 9999))
        r.members.append((self.next_id("member"), first, last, "Head of household"))
        if rng.random() < 0.35:
            r.members.append((self.next_id("member"), rng.choice(FIRST_NAMES), last if rng.random() < 0.5
                              else rng.choice(LAST_NAMES), "Co-Head"))
        r.ad_source = rng.choice(AD_SOURCES)
        r.agent = rng.choice(AGENTS)
        return r

    def recurring_for(self, u, rent_cents, rng, base=None):
        if base is not None:
            rec = [("RENT", rent_cents)] + [x for x in base if x[0] != "RENT"]
            return rec
        rec = [("RENT", rent_cents)]
        beds = max(1, u.fp.beds)
        if rng.random() < 0.85:
            rec.append(("WATER", (2800 + beds * 900 + rng.randint(0, 6) * 100)))
        if rng.random() < 0.70:
            rec.append(("SEWER", (2200 + beds * 600 + rng.randint(0, 4) * 100)))
        rec.append(("TRASH", rng.choice((1500, 1800, 2000, 2500))))
        if rng.random() < 0.25:
            rec.append(("PEST", 500))
        return rec

    def build_leases(self, r, u, move_in, until, rng, rent_factor, allow_mtm, market_at_start):
        """Lease chain from move_in; keeps renewing while a lease ends before `until`."""
        term = rng.choice((12, 12, 12, 12, 12, 6, 9, 13, 14, 15))
        start = move_in
        rent = int(round(market_at_start * rent_factor / 500.0)) * 500
        rec = self.recurring_for(u, rent, rng)
        signed = move_in - dt.timedelta(days=rng.randint(4, 30))
        applied = signed - dt.timedelta(days=rng.randint(1, 5))
        prev = None
        while True:
            end = add_months(start, term) - DAY
            le = Lease(self.next_id("lease"), r, start, end, rent, rec, prev is not None, signed, applied, term)
            le.deposit = 50000 if prev is None else 0
            if prev:
                prev.next = le
                le.prior = prev
            r.leases.append(le)
            prev = le
            if until is None or end >= until:
                break
            if allow_mtm and rng.random() < 0.05 and end < self.as_of:
                le.mtm = True
                break
            start = end + DAY
            term = rng.choice((12, 12, 12, 12, 6, 13, 15))
            rent = int(round(rent * rng.uniform(1.015, 1.065) / 500.0)) * 500
            rec = self.recurring_for(u, rent, rng, base=rec)
            signed = start - dt.timedelta(days=rng.randint(20, 60))
            applied = signed
        r.deposit = r.leases[0].deposit
        return r.leases

    def gen_unit_history(self, p, u, rng):
        as_of = self.as_of
        horizon = self.win_start - dt.timedelta(days=30)
        mr = u.market_rent
        # market rent drifted ~3%/yr: rent at a past date
        def market_at(d):
            yrs = (as_of - d).days / 365.0
            return mr / (1.03 ** yrs)

        s = u.status
        chain_end = None    # date before which the previous residency must have ended
        if s in ("occupied", "ntv", "ntv_leased"):
            r = self.new_residency(p, u, rng)
            tenure = rng.choice((rng.randint(1, 360), rng.randint(200, 900), rng.randint(360, 1300)))
            r.move_in = self.dodge(as_of - dt.timedelta(days=tenure))
            if s == "occupied":
                until = as_of
                self.build_leases(r, u, r.move_in, until, rng, rng.uniform(0.93, 1.02), True,
                                  market_at(r.move_in))
                cur = r.leases[-1]
                # signed renewal for leases expiring soon
                if not cur.mtm and (cur.end - as_of).days <= 75 and rng.random() < 0.5:
                    start = cur.end + DAY
                    rent = int(round(cur.rent * rng.uniform(1.02, 1.05) / 500.0)) * 500
                    le = Lease(self.next_id("lease"), r, start, add_months(start, 12) - DAY, rent,
                               self.recurring_for(u, rent, rng, base=cur.recurring), True,
                               self.dodge(as_of - dt.timedelta(days=rng.randint(1, 40))), None, 12)
                    le.applied = le.signed
                    le.prior, cur.next = cur, le
                    r.leases.append(le)
            else:
                # notice to vacate: move-out 3..80 days out, avoiding the 30/60 day edges
                while True:
                    d = rng.randint(3, 80)
                    if d not in (29, 30, 31, 59, 60, 61):
                        break
                r.move_out = as_of + dt.timedelta(days=d)
                r.notice_given = self.dodge(min(as_of - DAY, r.move_out - dt.timedelta(days=rng.randint(30, 60))))
                self.build_leases(r, u, r.move_in, as_of, rng, rng.uniform(0.93, 1.02), False,
                                  market_at(r.move_in))
                if r.notice_given < r.move_in:
                    r.notice_given = r.move_in + DAY
            r.status = "current"
            u.current = r
            u.residencies.append(r)
            chain_end = r.move_in
            if s == "ntv_leased":
                f = self.new_residency(p, u, rng)
                f.status = "future"
                f.move_in = r.move_out + dt.timedelta(days=rng.randint(3, 15))
                self.build_leases(f, u, f.move_in, None, rng, rng.uniform(0.97, 1.03), False, mr)
                le = f.leases[0]
                le.signed = self.dodge(as_of - dt.timedelta(days=rng.randint(1, 25)))
                le.applied = self.dodge(le.signed - dt.timedelta(days=rng.randint(1, 4)))
                u.future = f
        else:
            # vacant: days vacant avoiding the 89..92 aged edge
            if s in ("model", "down"):
                dv = rng.randint(120, 700)
            else:
                while True:
                    x = rng.random()
                    if x < 0.60:
                        dv = rng.randint(1, 60)
                    elif x < 0.82:
                        dv = rng.randint(61, 88)
                    else:
                        dv = rng.randint(93, 320)
                    if key_dv_ok(dv):
                        break
            u.vacant_since = as_of - dt.timedelta(days=dv)
            chain_end = u.vacant_since + DAY
            if s in ("vacant", "vacant_leased"):
                ready_p = 0.35 if dv < 10 else 0.7
                if rng.random() < ready_p:
                    mrd = u.vacant_since + dt.timedelta(days=rng.randint(3, 12))
                    if mrd <= as_of:
                        u.made_ready = mrd
            quirks = getattr(self, "quirks", None)
            if s == "vacant" and u.id % 3 == 0 and quirks is not None and (
                    quirks.has("rpx_lease_up_units", p.key) or quirks.has("yardi_lease_up_units", p.key)):
                # Quirk *_lease_up_units: never occupied, made ready (available) the day it would have been vacated.
                u.made_ready, u.vacant_since, chain_end = u.vacant_since, None, None
            if s == "vacant_leased":
                f = self.new_residency(p, u, rng)
                f.status = "future"
                f.move_in = as_of + dt.timedelta(days=rng.randint(2, 40))
                self.build_leases(f, u, f.move_in, None, rng, rng.uniform(0.96, 1.02), False, mr)
                le = f.leases[0]
                le.signed = self.dodge(as_of - dt.timedelta(days=rng.randint(1, 20)))
                le.applied = self.dodge(le.signed - dt.timedelta(days=rng.randint(1, 4)))
                u.future = f

        # earlier (former) residencies, walking back in time
        past = []
        t = chain_end
        while t is not None and t > horizon:
            gap = rng.randint(4, 40) if not past and u.is_vacant else rng.randint(5, 45)
            if not past and u.is_vacant:
                move_out = u.vacant_since
            else:
                move_out = t - dt.timedelta(days=gap)
            dur = rng.randint(180, 1150)
            move_in = move_out - dt.timedelta(days=dur)
            r = self.new_residency(p, u, rng)
            r.status = "former"
            r.move_in = self.dodge(move_in)
            r.move_out = self.dodge(move_out) if not (not past and u.is_vacant) else move_out
            if r.move_out <= r.move_in:
                r.move_out = r.move_in + dt.timedelta(days=200)
            r.notice_given = self.dodge(r.move_out - dt.timedelta(days=rng.randint(30, 60)))
            if r.notice_given <= r.move_in:
                r.notice_given = r.move_in + DAY
            self.build_leases(r, u, r.move_in, r.move_out - dt.timedelta(days=45), rng,
                              rng.uniform(0.93, 1.02), False, market_at(r.move_in))
            past.append(r)
            t = r.move_in
        past.reverse()
        u.residencies = past + u.residencies

    # ---------------------------------------------------------------- rentable items
    def gen_rentable_items(self, p, rng):
        n_garage = max(4, len(p.units) // 12)
        n_storage = max(2, len(p.units) // 25)
        items = []
        rid = p.id_base + 900000
        current = [u.current for u in p.units if u.current is not None]
        for kind, n, price in (("Garage", n_garage, rng.choice((7500, 10000, 12500))),
                               ("Storage", n_storage, rng.choice((3500, 4500, 5000)))):
            for i in range(n):
                rid += 1
                item = {"id": rid, "name": "%s %s%02d" % (kind, kind[0], i + 1), "type": kind,
                        "price": price, "res": None, "lease": None, "start": None}
                if current and rng.random() < 0.7:
                    r = current[rng.randrange(len(current))]
                    if all(it["res"] is not r for it in items):
                        le = r.current_lease(self.as_of)
                        item["res"], item["lease"] = r, le
                        item["start"] = max(le.start, self.as_of - dt.timedelta(days=rng.randint(30, 400)))
                        if not any(c[0] == "PARKING" for c in le.recurring):
                            le.recurring = le.recurring + [("PARKING", price)]
                            if le.next is not None:
                                le.next.recurring = le.next.recurring + [("PARKING", price)]
                items.append(item)
        p.rentable_items = items

    # ---------------------------------------------------------------- ledger
    def gen_ledger(self, p, r, rng):
        """Posting plan for one household: one record per month in the ledger window.

        Each month record is (month_idx, post_date, lease, days_in_possession, days_in_month, exception,
        late_fee_date|None, pay_date, pay_cents, extra_pay_date|None, extra_pay_cents). Individual charge
        and payment rows are materialized from it on demand (see materialize_ledger)."""
        as_of = self.as_of
        r.months = []
        if r.status == "future" or r.move_in > as_of:
            return
        last = r.move_out if r.move_out and r.move_out <= as_of else None
        if last is not None and last < self.win_start:
            return
        # payment behaviour
        x = rng.random()
        if r.status == "current":
            r.behavior = current_behavior(x)
        else:
            recent = r.move_out is not None and (as_of - r.move_out).days <= 270
            r.behavior = "owes" if recent and x < 0.25 else "settled"
        behind = 0
        if r.behavior == "behind":
            y = rng.random()
            behind = 1 if y < 0.5 else 2 if y < 0.75 else 3 if y < 0.9 else rng.randint(4, 6)
        r.method = rng.choice(PAYMENT_METHODS)
        months = self.months
        i0 = self.month_index[month_start(max(r.move_in, self.win_start))]
        n_months_total = len(months) - i0
        as_of_m = months[-1][0]
        audit_month = None
        if r.status == "current" and rng.random() < 0.04:
            audit_month = months[len(months) - 1 - rng.randint(0, 5)][0]
        end_occ = r.move_out
        rnd = rng.random
        move_in = r.move_in
        leases = r.leases
        behavior = r.behavior
        recs = r.months
        ctot = ptot = 0
        for month_idx in range(n_months_total):
            mi = i0 + month_idx
            m, me, dim, period, mdays = months[mi]
            if end_occ is not None and end_occ < m:
                break
            occ_start = move_in if move_in > m else m
            occ_end = end_occ if end_occ is not None and end_occ < me else me
            post = occ_start
            if post > as_of:
                break
            le = leases[0]
            for x_ in leases:
                if x_.start <= post:
                    le = x_
            days = (occ_end - occ_start).days + 1
            exc = None
            if audit_month == m:
                audit_month = None
                codes = [c for c, _ in le.recurring if c not in ("RENT", "PARKING")]
                code = rng.choice(codes)
                a = dict(month_lines(le, days, dim, None))[code]
                kind = rng.choice(("missing", "wrong_amount"))
                delta = rng.choice((-1, 1)) * rng.choice((500, 1000, 1500))
                posted = None if kind == "missing" else (a + delta if a + delta > 0 else a + abs(delta))
                exc = (code, posted)
                p.audit_exceptions.append({"resident_id": r.id, "tenant_code": r.tcode, "lease_id": le.id,
                                           "unit": r.unit.number, "month": period, "charge_code": code,
                                           "expected": money(a), "posted": money(posted or 0), "kind": kind})
            if days >= dim and exc is None:
                month_total = le.total
            else:
                month_total = sum(a for _, a in month_lines(le, days, dim, exc))
            n_left = n_months_total - month_idx   # months remaining incl. this one
            late = False
            pay = month_total
            if behavior == "behind" and n_left <= behind:
                late = True
                pay = (month_total * (30 + int(rnd() * 41)) // 100) if rnd() < 0.3 else 0
                pay_day = mdays[8 + int(rnd() * 10)]
            elif behavior == "late" and rnd() < 0.5:
                late = True
                pay_day = mdays[7 + int(rnd() * 10)]
            else:
                pay_day = mdays[min(30, post.day - 1 + int(rnd() * 5))]
            fee_day = None
            if late:
                fd = mdays[min(30, max(5, post.day + 4))]
                if fd <= as_of and fd <= me and (end_occ is None or fd <= end_occ):
                    fee_day = fd
                    month_total += LATE_FEE_CENTS
                    if behavior == "late":
                        pay += LATE_FEE_CENTS
                        if pay_day < fd:
                            pay_day = fd
            if behavior == "owes" and end_occ is not None and (end_occ - m).days < 62:
                pay = 0     # stopped paying in the last two months
            if pay <= 0 or pay_day > as_of:
                pay, pay_day = 0, None
            xd = None
            xa = 0
            if behavior == "prepaid" and m == as_of_m:
                xa = le.rent if rnd() < 0.6 else rng.randint(5, 60) * 1000
                xd = as_of - dt.timedelta(days=rng.randint(0, 6))
                if xd < m:
                    xd = m
            recs.append((mi, post, le, days, dim, exc, fee_day, pay_day, pay, xd, xa, month_total, pay + xa))
            ctot += month_total
            ptot += pay + xa
        # move-out charges for former residents
        r.extra_charges = []
        r.extra_payments = []
        if r.status == "former" and end_occ is not None:
            d = end_occ + dt.timedelta(days=rng.randint(3, 9))
            if d <= as_of:
                total = 0
                for code, amt in (("CLEANING", rng.randint(8, 30) * 1000),
                                  ("DAMAGE", rng.choice((0, 0, 0, rng.randint(5, 90) * 1000)))):
                    if amt:
                        r.extra_charges.append((d, code, amt))
                        total += amt
                if r.behavior == "settled" and total:
                    pd_ = d + dt.timedelta(days=rng.randint(5, 20))
                    if pd_ <= as_of:
                        r.extra_payments.append((pd_, total))
                        ptot += total
                ctot += total
        r.charge_total, r.payment_total = ctot, ptot
        r.credit = ptot - ctot if ptot > ctot else 0

    def materialize_ledger(self, r):
        """Charge rows [txn_id, date, code, cents, period 'YYYY-MM', lease_id, paid, open_balance] and payment
        rows (txn_id, date, cents, period, method, reference), with balance-forward FIFO allocation."""
        if r._ledger is not None:
            return r._ledger
        charges, payments = [], []
        months = self.months
        base = r.id * 1000
        for (mi, post, le, days, dim, exc, fee_day, pay_day, pay, xd, xa, _mt, _mp) in r.months:
            period = months[mi][3]
            tb = base + mi * 40
            k = 0
            for code, a in month_lines(le, days, dim, exc):
                k += 1
                charges.append([tb + k, post, code, a, period, le.id, 0, a])
            if fee_day is not None:
                charges.append([tb + 30, fee_day, "LATEFEE", LATE_FEE_CENTS, period, le.id, 0, LATE_FEE_CENTS])
            if pay_day is not None:
                payments.append((tb + 35, pay_day, pay, period, r.method, _ref(r.method, tb + 35)))
            if xd is not None:
                payments.append((tb + 36, xd, xa, period, r.method, _ref(r.method, tb + 36)))
        for k, (d, code, amt) in enumerate(r.extra_charges):
            charges.append([extra_posting_id(r, k, False), d, code, amt, month_key(d), _lease_id_on(r, d), 0, amt])
        for k, (d, amt) in enumerate(r.extra_payments):
            tid = extra_posting_id(r, k, True)
            payments.append((tid, d, amt, month_key(d), r.method, _ref(r.method, tid)))
        # A credit (a negative charge, the clock's correction to an old rent) is money toward the open charges, like a
        # payment: it is applied first, so the open items add up to the balance however the payments run out.
        remaining = sum(x[2] for x in payments) - sum(c[3] for c in charges if c[3] < 0)
        for c in charges:       # created in date order
            if c[3] < 0:
                c[6], c[7] = c[3], 0
                continue
            if remaining <= 0:
                continue
            paid = c[3] if remaining >= c[3] else remaining
            remaining -= paid
            c[6], c[7] = paid, c[3] - paid
        r._ledger = (charges, payments)
        return r._ledger

    def open_items(self, r):
        """Open (unpaid) charges as [txn_id, date, code, cents, period, lease_id, paid, open] -- the same rows
        materialize_ledger() leaves open, computed from the newest months only (balance-forward FIFO)."""
        open_total = r.charge_total - r.payment_total
        if open_total <= 0:
            return []
        # Once the clock has posted to the household (a credit to an old charge, a late payment), only the ledger's
        # own FIFO says what is open: the newest-months shortcut below aged a credit differently, so the Delinquent
        # report changed with whether a ledger request had come first.
        if r._ledger is not None or r.extra_charges or r.extra_payments:
            return [c for c in self.materialize_ledger(r)[0] if c[7] > 0]
        months = self.months
        base = r.id * 1000
        tail = []
        for k in range(len(r.extra_charges) - 1, -1, -1):
            d, code, amt = r.extra_charges[k]
            tail.append([extra_posting_id(r, k, False), d, code, amt, month_key(d), _lease_id_on(r, d), 0, amt])
        acc = sum(c[3] for c in tail)
        for rec in reversed(r.months):
            if acc >= open_total:
                break
            (mi, post, le, days, dim, exc, fee_day, pay_day, pay, xd, xa, _mt, _mp) = rec
            period = months[mi][3]
            tb = base + mi * 40
            if fee_day is not None:
                tail.append([tb + 30, fee_day, "LATEFEE", LATE_FEE_CENTS, period, le.id, 0, LATE_FEE_CENTS])
                acc += LATE_FEE_CENTS
            lines = month_lines(le, days, dim, exc)
            for k in range(len(lines) - 1, -1, -1):
                code, a = lines[k]
                tail.append([tb + k + 1, post, code, a, period, le.id, 0, a])
                acc += a
        # tail is newest-first; keep charges until the open total is covered
        out = []
        need = open_total
        for c in tail:
            if need <= 0:
                break
            if c[3] <= need:
                need -= c[3]
            else:
                c[6], c[7] = c[3] - need, need
                need = 0
            out.append(c)
        out.reverse()
        return out

    def monthly_ledger(self, r):
        """[(period, charges_cents, payments_cents, end_balance_cents)] for each month with postings."""
        out = []
        bal = 0
        months = self.months
        extra = {}
        for d, code, amt in r.extra_charges:
            e = extra.setdefault(month_key(d), [0, 0])
            e[0] += amt
        for d, amt in r.extra_payments:
            e = extra.setdefault(month_key(d), [0, 0])
            e[1] += amt
        for rec in r.months:
            period = months[rec[0]][3]
            c, pm = rec[11], rec[12]
            if extra:
                e = extra.pop(period, None)
                if e:
                    c += e[0]
                    pm += e[1]
            bal += c - pm
            out.append((period, c, pm, bal))
        for period in sorted(extra):
            c, pm = extra[period]
            bal += c - pm
            out.append((period, c, pm, bal))
        return out

    # ---------------------------------------------------------------- leasing activity
    def gen_activity(self, p, rng):
        as_of = self.as_of
        a0 = as_of - dt.timedelta(days=ACTIVITY_DAYS)
        events = []
        channels = ("email", "email", "email", "phone", "phone", "internet", "text", "visit")
        # converting prospects: every new household whose first lease was signed in the horizon
        for r in p.residencies:
            first = r.leases[0] if r.leases else None
            if first is None or first.signed is None or first.signed < a0 or first.signed > as_of:
                continue
            pr = self.new_prospect(p, r.first, r.last, rng)
            pr.res = r
            pr.email, pr.phone = r.email, r.phone
            pr.fp = r.unit.fp
            pr.outcome = "Leased"
            pr.source = r.ad_source
            pr.agent = r.agent
            sign = first.signed
            approve = self.dodge(sign - dt.timedelta(days=rng.randint(0, 2)))
            app = self.dodge(min(first.applied or approve, approve) - dt.timedelta(days=rng.randint(0, 2)))
            tour = self.dodge(app - dt.timedelta(days=rng.randint(0, 5)))
            ch = channels[rng.randrange(len(channels))]
            lead = tour if ch == "visit" else self.dodge(tour - dt.timedelta(days=rng.randint(0, 12)))
            pr.channel = ch
            pr.desired_move_in = r.move_in
            pr.desired_rent = first.rent
            pr.events = [Event(lead, "lead", pr, agent=pr.agent, source=pr.source, notes=ch),
                         Event(tour, "tour", pr, unit=r.unit, agent=pr.agent, source=pr.source,
                               notes="walk-in" if ch == "visit" else "scheduled"),
                         Event(app, "application", pr, unit=r.unit, agent=pr.agent, source=pr.source),
                         Event(approve, "approval", pr, unit=r.unit, agent=pr.agent, source=pr.source),
                         Event(sign, "lease_signed", pr, unit=r.unit, res=r, agent=pr.agent, source=pr.source)]
            events.extend(pr.events)
        # non-converting traffic
        per_day = max(0.6, len(p.units) * 0.0045)
        d = a0
        while d <= as_of:
            n = int(per_day) + (1 if rng.random() < per_day - int(per_day) else 0)
            for _ in range(n):
                lead = self.dodge(d)
                pr = self.new_prospect(p, rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES), rng)
                pr.fp = rng.choice(p.floorplans)
                pr.channel = ch = channels[rng.randrange(len(channels))]
                pr.source = rng.choice(AD_SOURCES)
                pr.agent = rng.choice(AGENTS)
                pr.desired_move_in = lead + dt.timedelta(days=rng.randint(10, 75))
                pr.desired_rent = pr.fp.base_rent * 100
                pr.events.append(Event(lead, "lead", pr, agent=pr.agent, source=pr.source, notes=ch))
                pr.outcome = "Active"
                t = None
                if ch == "visit":
                    t = lead
                elif rng.random() < 0.35:
                    t = self.dodge(lead + dt.timedelta(days=rng.randint(1, 9)))
                if t is not None and t <= as_of:
                    pr.events.append(Event(t, "tour", pr, agent=pr.agent, source=pr.source,
                                           notes="walk-in" if ch == "visit" else "scheduled"))
                    if rng.random() < 0.18:
                        a = self.dodge(t + dt.timedelta(days=rng.randint(0, 4)))
                        if a <= as_of:
                            pr.events.append(Event(a, "application", pr, agent=pr.agent, source=pr.source))
                            dd = self.dodge(a + dt.timedelta(days=rng.randint(1, 3)))
                            if dd <= as_of:
                                kind = rng.choice(("application_denied", "application_canceled"))
                                pr.events.append(Event(dd, kind, pr, agent=pr.agent, source=pr.source))
                                pr.outcome = "Lost"
                if pr.outcome == "Active" and (as_of - lead).days > 45:
                    pr.outcome = "Lost"
                events.extend(pr.events)
            d += DAY
        # resident events
        for r in p.residencies:
            if r.move_in and a0 <= r.move_in <= as_of:
                events.append(Event(r.move_in, "move_in", unit=r.unit, res=r, agent=r.agent))
            if r.move_out and a0 <= r.move_out <= as_of:
                events.append(Event(r.move_out, "move_out", unit=r.unit, res=r, agent=r.agent))
            if r.notice_given and a0 <= r.notice_given <= as_of:
                events.append(Event(r.notice_given, "notice", unit=r.unit, res=r, agent=r.agent))
            for le in r.leases:
                if le.is_renewal and le.signed and a0 <= le.signed <= as_of:
                    events.append(Event(le.signed, "renewal", unit=r.unit, res=r, agent=r.agent))
        events.sort(key=event_order)
        p.events = events

    def new_prospect(self, p, first, last, rng):
        # A prospect is known by name on the OneSite Activity report (its only key): two prospects of one property
        # never share "Last, First" (a middle initial tells them apart; no random draw, so nothing else moves).
        taken = p.__dict__.setdefault("_prospect_names", set())
        base, k = first, 0
        while (first, last) in taken:
            first = "%s %s." % (base, chr(ord("A") + k % 26))
            k += 1
        taken.add((first, last))
        pr = Prospect(self.next_id("prospect"), first, last)
        pr.email = "%s.%s%d@example.net" % (base.lower(), last.lower().replace("'", ""), rng.randint(1, 999))
        pr.phone = "(%03d) 555-%04d" % (rng.randint(201, 989), rng.randint(0, 9999))
        p.prospects.append(pr)
        return pr



_KIND_ORDER = {k: i for i, k in enumerate(EVENT_KINDS)}


def event_order(e):
    """A property's activity is sorted by date, kind (EVENT_KINDS' order), unit and prospect (start-up and clock)."""
    return (e.date, _KIND_ORDER[e.kind], e.unit.number if e.unit else "", e.prospect.id if e.prospect else 0)


PAYMENT_METHODS = ("ACH", "ACH", "Check", "Credit Card", "Money Order")


def current_behavior(x):
    """A current household's payment habit from a uniform draw `x`: 77 % good, 7 % late, 11 % behind, 5 % prepaid
    (start-up households and the clock's new ones alike)."""
    return "good" if x < 0.77 else "late" if x < 0.84 else "behind" if x < 0.95 else "prepaid"


def month_lines(le, days, dim, exc):
    """Recurring charge lines (code, cents) posted for one month of a lease: prorated by days in
    possession (round half up to the cent), with an audit exception (code, posted|None) applied."""
    if days >= dim and exc is None:
        return le.recurring
    out = []
    for code, amt in le.recurring:
        a = amt if days >= dim else (amt * days + dim // 2) // dim
        if exc is not None and exc[0] == code:
            if exc[1] is None:
                continue
            a = exc[1]
        out.append((code, a))
    return out


def _ref(method, tid):
    return ("CHK%06d" if method == "Check" else "EP%06d") % (tid % 1000000)


def key_dv_ok(dv):
    return dv not in (89, 90, 91, 92)


def generate(seed, as_of, registry_path=None):
    g = Generator(seed, as_of, load_registry(registry_path))
    return g.build()
