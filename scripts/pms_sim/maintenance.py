"""Work orders (unit turns + service requests) and monthly operating expenses of a generated property.

Drawn from a random generator of their own (seeded from the main seed and the property key), after the property is
generated, so that adding them leaves every other output -- units, leases, ledger, truth numbers -- byte-identical.
Computed lazily and cached on the property: the truth writer (in a forked child) and the servers (in the parent)
draw the same values independently.

History horizon: every open work order, and every work order completed from the first day of the month
WORK_ORDER_MONTHS - 1 months before the as-of month up to the as-of date (what the Closed Make Ready report and
GetServiceRequest_Search serve). Expenses: every month of the ledger window, the as-of month to date.
"""

import datetime as dt

from . import invoices
from .portfolio import Rng, add_months, month_start, month_key, days_in_month, AGENTS

WORK_ORDER_MONTHS = 12          # closed work orders kept: completed in the as-of month and the 11 before
TRUTH_WINDOW_MONTHS = 3         # `closed_in_window` of the truth: completed in (as_of - 3 months, as_of]
MAKE_READY_DUE_DAYS = 7         # a turn is due a week after the vacate date
DAY = dt.timedelta(days=1)

TECHS = ["Luis Ortega", "Dana Whitfield", "Sam Okafor", "Priya Raman", "Turnkey Services LLC"]
OPEN_TURN_STATUS = ["Not Started", "In Progress", "Waiting on Parts"]

# Yardi service-request categories with (brief, full) description pairs.
SERVICE_CATEGORIES = [
    ("Plumbing", [("Leaking faucet", "Kitchen faucet drips constantly"), ("Clogged drain", "Bathroom sink drains slowly"),
                  ("Running toilet", "Toilet keeps running after flush")]),
    ("Electrical", [("Outlet not working", "Bedroom outlet has no power"), ("Light fixture out", "Hallway light out")]),
    ("HVAC", [("No heat", "Heater blows cold air"), ("AC not cooling", "AC runs but does not cool"),
              ("Replace filter", "HVAC filter due for replacement")]),
    ("Appliance", [("Dishwasher", "Dishwasher does not drain"), ("Refrigerator", "Fridge not keeping cold"),
                   ("Disposal", "Garbage disposal jammed")]),
    ("Pest Control", [("Ants", "Ants in kitchen"), ("Roaches", "Roaches under sink")]),
    ("General", [("Door lock", "Front door lock sticks"), ("Blinds", "Living room blinds broken"),
                 ("Smoke detector", "Smoke detector chirping")]),
]
SERVICE_OPEN_STATUS = ["Open", "In Progress", "On Hold"]

# Operating expense accounts (the 6xxx-7xxx chart the GL categories default to): account, name, monthly base in
# dollars per unit, share of months posted (1.0 = every month).
EXPENSE_ACCOUNTS = [
    ("6110-0000", "Salaries - Office", 38.0, 1.0),
    ("6120-0000", "Salaries - Maintenance", 31.0, 1.0),
    ("6210-0000", "Office Supplies", 2.2, 0.9),
    ("6230-0000", "Software and Licenses", 3.1, 1.0),
    ("6310-0000", "Repairs - Plumbing", 4.5, 0.95),
    ("6320-0000", "Repairs - HVAC", 5.2, 0.9),
    ("6330-0000", "Repairs - Appliances", 3.0, 0.85),
    ("6410-0000", "Turnover - Painting", 6.0, 0.9),
    ("6420-0000", "Turnover - Cleaning", 3.8, 0.9),
    ("6510-0000", "Landscaping Contract", 4.0, 1.0),
    ("6520-0000", "Pest Control Contract", 1.1, 1.0),
    ("6610-0000", "Internet Advertising", 3.5, 1.0),
    ("6710-0000", "Electricity - Common", 9.0, 1.0),
    ("6720-0000", "Water and Sewer", 14.0, 1.0),
    ("6810-0000", "Property Insurance", 22.0, 1.0),
    ("6910-0000", "Real Estate Taxes", 95.0, 1.0),
    ("7010-0000", "Management Fees", 41.0, 1.0),
]


def horizon_start(as_of):
    """First day kept for closed work orders: the first of the month WORK_ORDER_MONTHS - 1 before as_of's."""
    return add_months(month_start(as_of), -(WORK_ORDER_MONTHS - 1))


class WorkOrder:
    __slots__ = ("id", "kind", "unit", "tenant_code", "category", "brief", "full", "opened", "opened_time", "due",
                 "completed", "completed_time", "status", "history", "work_orders", "assigned_to", "amount_cents",
                 "vacated", "planned")

    def __init__(self, wid, kind, unit):
        self.id, self.kind, self.unit = wid, kind, unit
        self.tenant_code = None
        self.category = "Make Ready"
        self.brief = self.full = None
        self.opened = self.due = self.completed = None
        self.opened_time = self.completed_time = None     # datetime (Yardi timestamps)
        self.status = None          # PMS status text
        self.history = []           # [(status, datetime)]
        self.work_orders = 1
        self.assigned_to = None
        self.amount_cents = 0
        self.vacated = None
        self.planned = None         # the day the clock completes it (clock.py), None: not scheduled

    @property
    def is_open(self):
        return self.completed is None

    @property
    def days_to_complete(self):
        return None if self.completed is None else (self.completed - self.opened).days


class Maintenance:
    """A property's turns (make-readies), service requests (Yardi) and expenses (RealPage)."""

    def __init__(self, turns, upcoming, requests, expenses):
        self.turns = turns              # [WorkOrder] open turns + turns closed in the horizon
        self.upcoming = upcoming        # [(unit, residency)] notice units: the turn is not open yet
        self.requests = requests        # [WorkOrder] Yardi service requests (open + closed in the horizon)
        self.expenses = expenses        # {month: {account: cents}}

    @property
    def orders(self):
        return self.turns + self.requests


def of(g, p):
    """The property's maintenance and expenses (drawn once, cached on the property)."""
    m = getattr(p, "_maintenance", None)
    if m is None:
        m = _generate(g, p)
        p._maintenance = m
    return m


def _at(rng, d, first_hour=8, last_hour=17):
    return dt.datetime(d.year, d.month, d.day, rng.randint(first_hour, last_hour - 1), rng.randint(0, 59),
                       rng.randint(0, 59))


def _generate(g, p):
    rng = Rng("%s:%s:maintenance" % (g.seed, p.key))
    as_of = g.as_of
    keep_from = horizon_start(as_of)
    turns, upcoming = _turns(rng, p, as_of, keep_from)
    if p.pms == "yardi":
        # Voyager numbers every service request, a turn included
        for k, wo in enumerate(turns):
            wo.id = str(p.id_base + 950000 + k + 1)
    requests = _service_requests(rng, p, as_of, keep_from) if p.pms == "yardi" else []
    expenses = _expenses(rng, g, p) if p.pms == "realpage" else {}
    return Maintenance(turns, upcoming, requests, expenses)


def _turns(rng, p, as_of, keep_from):
    """One make-ready per vacate date: closed when the unit was made ready (or re-let), open while vacant and not
    ready. Model and down units are not turned; a notice unit's turn opens on its move-out date. Turns completed
    before the history kept draw nothing (start-up time: most former residencies are older)."""
    turns, upcoming = [], []
    for u in sorted(p.units, key=lambda x: x.id):
        if u.status in ("ntv", "ntv_leased") and u.current is not None and u.current.move_out is not None:
            upcoming.append((u, u.current))
        residencies = u.residencies
        for i, r in enumerate(residencies):
            if r.move_out is None or r.move_out > as_of:
                continue
            last_turn = r.move_out == u.vacant_since and u.is_vacant
            if last_turn:
                if u.status in ("model", "down"):
                    continue
                completed = u.made_ready
            else:
                nxt = None
                for later in residencies[i + 1:]:
                    if later.move_in is not None and later.move_in > r.move_out:
                        nxt = later
                        break
                if nxt is None or nxt.move_in <= keep_from:
                    continue        # no next tenant (not the last vacancy), or completed before the history kept
                k = rng.randint(1, 12)
                completed = max(r.move_out, min(r.move_out + dt.timedelta(days=k), nxt.move_in - DAY))
            if completed is not None and completed < keep_from:
                continue
            wo = _turn(rng, "MR-%s-%s" % (u.number, r.move_out.isoformat()), u, r.move_out)
            wo.completed = completed
            if completed is None:
                wo.status = rng.choice(OPEN_TURN_STATUS)
                wo.history = [("Open", wo.opened_time)]
                if wo.status != "Not Started":
                    wo.history.append(("In Progress", wo.opened_time + dt.timedelta(hours=rng.randint(20, 60))))
            else:
                wo.status = "Completed"
                wo.amount_cents = rng.randint(150, 1800) * 100 + rng.choice((0, 25, 50, 75))
                wo.completed_time = _at(rng, completed, 12, 18)
                if wo.completed_time <= wo.opened_time:
                    wo.completed_time = wo.opened_time + dt.timedelta(hours=2)
                wo.history = [("Open", wo.opened_time), ("Completed", wo.completed_time)]
            turns.append(wo)
    return turns, upcoming


def _turn(rng, wid, u, vacated):
    """A make-ready turn of unit `u` opened on its vacate date (work orders, technician and times drawn)."""
    wo = WorkOrder(wid, "turn", u)
    wo.opened = wo.vacated = vacated
    wo.due = vacated + dt.timedelta(days=MAKE_READY_DUE_DAYS)
    wo.brief = "Make ready"
    wo.work_orders = rng.randint(1, 5)
    wo.assigned_to = rng.choice(TECHS)
    wo.opened_time = _at(rng, vacated)
    wo.full = "Unit turn after move-out: paint, clean, %d work order%s" % (
        wo.work_orders, "" if wo.work_orders == 1 else "s")
    return wo


def _tenant_on(u, d):
    for r in u.residencies:
        if r.move_in is not None and r.move_in <= d and (r.move_out is None or d <= r.move_out):
            return r
    return None


def _request_draw(rng):
    """A service request's category, texts, days to complete (0-2 mostly, 3-10 often, 11-45 for a few) and whether
    it is parked on hold (4 %: still open whatever its age)."""
    category, texts = SERVICE_CATEGORIES[rng.randrange(len(SERVICE_CATEGORIES))]
    brief, full = texts[rng.randrange(len(texts))]
    x = rng.random()
    dur = rng.randint(0, 2) if x < 0.45 else (rng.randint(3, 10) if x < 0.85 else rng.randint(11, 45))
    return category, brief, full, dur, rng.random() < 0.04


def _service_requests(rng, p, as_of, keep_from):
    """Resident service requests: ~5 % of units a month, over the horizon plus a month before it."""
    out = []
    start = keep_from - dt.timedelta(days=30)
    span = (as_of - start).days + 1
    n = int(len(p.units) * 0.05 * span / 30.4)
    base = p.id_base + 900000
    units = sorted(p.units, key=lambda x: x.id)
    drawn = []
    for k in range(n):
        u = units[rng.randrange(len(units))]
        opened = start + dt.timedelta(days=rng.randrange(span))
        category, brief, full, dur, on_hold = _request_draw(rng)
        drawn.append((u, opened, category, brief, full, dur, on_hold, rng.random(), rng.random()))
    drawn.sort(key=lambda d: (d[1], d[0].id))
    for k, (u, opened, category, brief, full, dur, on_hold, a, b) in enumerate(drawn):
        wo = WorkOrder(str(base + k + 1), "request", u)
        r = _tenant_on(u, opened)
        wo.tenant_code = r.tcode if r is not None else None
        wo.category, wo.brief, wo.full = category, brief, full
        wo.opened = opened
        wo.opened_time = dt.datetime(opened.year, opened.month, opened.day, 7 + int(a * 12), int(b * 60), 0)
        completed = opened + dt.timedelta(days=dur)
        if on_hold or completed > as_of:
            wo.status = "On Hold" if on_hold else SERVICE_OPEN_STATUS[int(a * 2)]
            wo.history = [("Open", wo.opened_time)]
            if wo.status != "Open":
                t = min(wo.opened_time + dt.timedelta(hours=3), dt.datetime(as_of.year, as_of.month, as_of.day, 23, 0))
                wo.history.append((wo.status, t))
        else:
            if completed < keep_from:
                continue
            wo.completed = completed
            wo.completed_time = dt.datetime(completed.year, completed.month, completed.day, 9 + int(b * 8), int(a * 60), 0)
            if wo.completed_time <= wo.opened_time:
                wo.completed_time = wo.opened_time + dt.timedelta(minutes=45)
            wo.status = "Completed"
            wo.history = [("Open", wo.opened_time)]
            if dur > 0:
                wo.history.append(("In Progress", wo.opened_time + dt.timedelta(hours=2)))
            wo.history.append(("Completed", wo.completed_time))
        out.append(wo)
    return out


def _expenses(rng, g, p):
    """Expense cents per month and account for the ledger window; the as-of month is month to date."""
    n_units = len(p.units)
    scale = rng.uniform(0.85, 1.2)
    out = {}
    for m in g.months:
        start, end, dim = m[0], m[1], m[2]
        part = 1.0
        if end > g.as_of:
            part = g.as_of.day / float(dim)
        out[m[3]] = {a: int(round(c)) for a, c in _month_accounts(rng, n_units, scale, part).items()}
    return out


def _month_accounts(rng, n_units, scale, part):
    """One month's expense accounts in (unrounded) cents: each posted in its share of months, `part` of the month
    gone; a repair account now and then a vendor credit."""
    month = {}
    for account, name, per_unit, share in EXPENSE_ACCOUNTS:
        if rng.random() > share:
            continue
        cents = per_unit * n_units * scale * rng.uniform(0.8, 1.25) * part * 100
        if account.startswith("63") and rng.random() < 0.05:
            cents = -rng.randint(50, 400) * 100     # a vendor credit: the statement prints it negative
        month[account] = cents
    return month


def account_name(account):
    for a, name, _, _ in EXPENSE_ACCOUNTS:
        if a == account:
            return name
    return account


# ------------------------------------------------------------------------------ truth

def truth(g, p):
    """work_orders + expenses of the truth file (see README)."""
    m = of(g, p)
    as_of = g.as_of
    window_from = add_months(as_of, -TRUTH_WINDOW_MONTHS)
    orders = []
    for wo in sorted(m.orders, key=lambda w: w.id):
        orders.append({"id": wo.id, "kind": wo.kind, "unit": wo.unit.number, "category": wo.category,
                       "status": "open" if wo.is_open else "closed", "pms_status": wo.status,
                       "opened": wo.opened.isoformat(), "due": wo.due.isoformat() if wo.due else None,
                       "completed": wo.completed.isoformat() if wo.completed else None,
                       "days_to_complete": wo.days_to_complete})
    closed = [o for o in orders if o["status"] == "closed"]
    in_window = [o for o in closed if window_from.isoformat() < o["completed"] <= as_of.isoformat()]
    wo = {"history_start": horizon_start(as_of).isoformat(), "window_months": TRUTH_WINDOW_MONTHS,
          "open": len(orders) - len(closed), "closed": len(closed), "closed_in_window": len(in_window),
          "days_to_complete_in_window": sorted(o["days_to_complete"] for o in in_window), "orders": orders}
    expenses = {month: {a: round(c / 100.0, 2) for a, c in sorted(accts.items())}
                for month, accts in sorted(m.expenses.items())}
    if p.pms == "yardi":
        expenses = invoices.truth(g, p)     # the invoice register's lines by post month (invoices.py)
    return wo, expenses


# ------------------------------------------------------------------------------ the clock's day (clock.py)

TURN_DAYS = (2, 12)             # a turn the clock opens is completed 2 to 12 days after the vacate date


def churn(g, p, day, rng, moved_out, moved_in, summary):
    """One day of the clock for the property's maintenance and expenses, after the day's move-ins and move-outs:
    a unit vacated today opens a make-ready turn (the notice unit's scheduled turn becomes an open one), an open
    turn is completed on its drawn day (or the day before a new household moves in) and the unit is made ready;
    resident service requests (Yardi) open at the generator's rate and close after a drawn duration; the month's
    expenses (RealPage) grow to date, a new month drawn on its first day. Work orders completed before the history
    kept are dropped, as at start-up."""
    m = of(g, p)
    for u, r in moved_out:
        m.upcoming = [(x, y) for x, y in m.upcoming if y is not r]
        if u.status in ("model", "down"):
            continue
        wo = _turn(rng, _next_turn_id(p, m, u, day), u, day)
        wo.status = rng.choice(OPEN_TURN_STATUS)
        wo.history = [("Open", wo.opened_time)]
        m.turns.append(wo)
        wo.planned = day + dt.timedelta(days=rng.randint(*TURN_DAYS))
        summary["turns_opened"] += 1
    arriving = {u.id for u in moved_in}
    for wo in m.turns:
        if wo.is_open and ((wo.planned or day) <= day or wo.unit.id in arriving):
            completed = day if wo.unit.id not in arriving else max(wo.opened, day - DAY)
            _complete(rng, wo, completed, 12, 18)
            wo.amount_cents = rng.randint(150, 1800) * 100 + rng.choice((0, 25, 50, 75))
            u = wo.unit
            if u.is_vacant and u.vacant_since == wo.vacated:
                u.made_ready = completed
            summary["turns_closed"] += 1
    if p.pms == "yardi":
        _requests(p, m, day, rng, summary)
    else:
        _expenses_to_date(g, p, m, day, rng)
    keep_from = horizon_start(day)
    m.turns = [wo for wo in m.turns if wo.is_open or wo.completed >= keep_from]
    m.requests = [wo for wo in m.requests if wo.is_open or wo.completed >= keep_from]


def start_clock(g, p):
    """Before the clock first moves (on the start date): every turn and request open at start-up gets the day it
    will be completed (a turn within TURN_DAYS, a request within 10 days; on hold stays open), and the start month's
    expenses (month to date) their whole-month amounts. Once per property."""
    m = of(g, p)
    if hasattr(m, "next_id"):
        return
    rng = Rng("%s:%s:maintenance-clock" % (g.seed, p.key))
    for wo in m.turns:
        if wo.is_open:
            wo.planned = g.as_of + dt.timedelta(days=rng.randint(*TURN_DAYS))
    for wo in m.requests:
        if wo.is_open and wo.status != "On Hold":
            wo.planned = g.as_of + dt.timedelta(days=rng.randint(1, 10))
    ids = [int(wo.id) for wo in m.orders if wo.id.isdigit()]
    m.next_id = {"turn": max([i for i in ids if i >= p.id_base + 950000] or [p.id_base + 950000]) + 1,
                 "request": max([i for i in ids if p.id_base + 900000 < i < p.id_base + 950000]
                                or [p.id_base + 900000]) + 1}
    m.month_expenses = {}
    key = month_key(g.as_of)
    if key in m.expenses:
        dim = days_in_month(g.as_of.year, g.as_of.month)
        m.month_expenses[key] = {a: c * dim / float(g.as_of.day) for a, c in m.expenses[key].items()}


def _next_turn_id(p, m, u, day):
    if p.pms != "yardi":
        return "MR-%s-%s" % (u.number, day.isoformat())
    m.next_id["turn"] += 1
    return str(m.next_id["turn"] - 1)


def _complete(rng, wo, completed, first_hour, last_hour):
    wo.completed = completed
    wo.completed_time = _at(rng, completed, first_hour, last_hour)
    if wo.completed_time <= wo.history[-1][1]:
        wo.completed_time = wo.history[-1][1] + dt.timedelta(hours=2)
    wo.status = "Completed"
    wo.history.append(("Completed", wo.completed_time))


def _requests(p, m, day, rng, summary):
    """Yardi: new service requests at ~5 % of units a month, drawn as at start-up (_request_draw)."""
    for wo in m.requests:
        if wo.is_open and wo.planned is not None and wo.planned <= day:
            _complete(rng, wo, day, 9, 17)
            summary["requests_closed"] += 1
    rate = len(p.units) * 0.05 / 30.4
    n = int(rate) + (1 if rng.random() < rate - int(rate) else 0)
    units = sorted(p.units, key=lambda x: x.id)
    for _ in range(n):
        u = units[rng.randrange(len(units))]
        category, brief, full, dur, on_hold = _request_draw(rng)
        wo = WorkOrder(str(m.next_id["request"]), "request", u)
        m.next_id["request"] += 1
        r = _tenant_on(u, day)
        wo.tenant_code = r.tcode if r is not None else None
        wo.category, wo.brief, wo.full = category, brief, full
        wo.opened = day
        wo.opened_time = _at(rng, day, 7, 19)
        wo.status = "Open"
        wo.history = [("Open", wo.opened_time)]
        if not on_hold:
            wo.planned = day + dt.timedelta(days=dur)
        else:
            wo.status = "On Hold"
            wo.history.append(("On Hold", wo.opened_time + dt.timedelta(hours=3)))
        m.requests.append(wo)
        summary["requests_opened"] += 1
        if wo.planned == day:       # done the day it was asked for
            _complete(rng, wo, day, 9, 17)
            summary["requests_closed"] += 1


def _expenses_to_date(g, p, m, day, rng):
    """RealPage: the month's expense accounts to date (whole-month amounts drawn on its first day, as _expenses
    draws them, times the share of the month gone)."""
    key = month_key(day)
    whole = m.month_expenses.get(key)
    if whole is None:
        whole = _month_accounts(rng, len(p.units), rng.uniform(0.85, 1.2), 1.0)
        m.month_expenses[key] = whole
    part = day.day / float(days_in_month(day.year, day.month))
    m.expenses[key] = {a: int(round(c * part)) for a, c in whole.items()}
