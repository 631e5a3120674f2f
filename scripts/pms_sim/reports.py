"""RealPage OneSite report files (.xlsx) for the Reporting REST flow.

report data is mapped from the generated portfolio to plain dicts here (numbers in dollars, dates as
datetime.date), and laid out by the shared OneSite layouts of scripts/lib/onesite_reports.py -- the same
layouts the parser fixtures use -- so the simulator serves what the parsers are tested on.
"""

import datetime as dt
import io
import os
import sys
from decimal import Decimal

from . import truth as T
from . import maintenance as M
from .portfolio import MANAGEMENT_COMPANY, CHARGE_CODES, GL_ACCOUNTS, month_key, month_start, month_end, add_months

REPORTS = {
    4238: ("box_score", "Box Score", "446266C0-D572-4D8A-A6DA-310C0AE61037"),
    4043: ("rent_roll", "Rent Roll", "A6F61299-E960-4235-9DC2-44D2C2EF4F99"),
    4260: ("delinquency", "Delinquency", "89A3C427-BE71-4A05-9D2B-BDF3923BF756"),
    4009: ("delinquency", "Delinquent and Prepaid", "584A377E-0352-470D-8BF0-754F41B250A3"),
    3837: ("activity", "Activity Report", "B29B7C76-04B8-4D6C-AABC-62127F0CAE63"),
    3877: ("monthly_summary", "Monthly Activity Summary", "E41626AB-EC0F-4F6C-A6EA-D7A93909AA9B"),
    # Lease Expiration under the id OneSite catalogues now (4299, Excel) and the one the system OwnerDash replaces
    # used (3838): the same report either way. `--withhold-report 4299` makes an account that offers only 3838.
    4299: ("lease_expiration", "Lease Expiration Detail - Excel", "B289373B-F2EF-4391-B492-1BCBC89A4864"),
    3838: ("lease_expiration", "Lease Expiration", "89545A3A-C28A-49CC-8791-396AE71AB422"),
    # Ids as bary249/NASAdash names them; no capture shows their report keys, so these GUIDs are the simulator's own.
    4186: ("make_ready_summary", "Make Ready Summary", "6C3D2A41-8E0B-4F7A-9B15-2D4E6F8A1C01"),
    4189: ("closed_make_ready", "Closed Make Ready Summary", "7D4E3B52-9F1C-4A8B-8C26-3E5F7A9B2D02"),
    3836: ("income_statement", "Income Statement", "8E5F4C63-A02D-4B9C-9D37-4F6A8BAC3E03"),
    # Ids, keys and formats observed in clients (report_definitions.json ships them too).
    3842: ("projected_occupancy", "Projected Occupancy", "345C5708-78BE-44F9-8932-0484913C9F78"),
    4020: ("monthly_transaction_summary", "Monthly Transaction Summary", "81ADF4FF-9961-4252-B668-405C652373DC"),
    4279: ("lost_rent_summary", "Lost Rent Summary", "AD3AB1DD-B8CC-410E-BF14-8F76DF3C83A5"),
    4156: ("renewal_detail", "Lease Expiration/Renewal Detail - Excel", "05E163C2-14E9-4A4E-B71F-328717ABF599"),
    4048: ("lease_details", "Lease Details", "69EB8E7D-4158-44CF-AC17-8A07E2F4182C"),
    # Leasing Activity Detail (LEA-236-001): seen only as downloaded files; its report id and key are the
    # simulator's own, and it is catalogued only when asked for (OPTIONAL).
    4236: ("leasing_activity_detail", "Leasing Activity Detail", "9F6A5D74-B13D-4C0E-AE48-5A7B9CBD4F04"),
}

# Reports served but left out of the catalogue unless named (`catalogue --with PARSER`): fetching them changes which
# report the funnel reads, so the demo, whose snapshot counts every artifact, runs without them.
OPTIONAL = {"leasing_activity_detail"}

# Format codes the catalogue overlay names (the simulator serves the form forms.py says whatever the code).
FORMAT_CODES = {"box_score": "1683", "activity": "562", "delinquency": "1611", "renewal_detail": "1979",
                "lease_details": "63", "lost_rent_summary": "2121", 4299: "2153"}


def catalogue(extra=()):
    """The report catalogue overlay OwnerDash fetches this simulator with: {"realpage": {"reports": [...]}}, one
    entry per report served, its later ids as `alternates` (Lease Expiration: 4299, then 3838) (4260, the older
    Delinquency, is served but not catalogued: 4009 is the one fetched;
    the OPTIONAL reports only when `extra` names their parser). Its report keys are the simulator's stand-ins where
    RealPage's are unknown, so they live here and in the demo's overlaid configuration only, never in the shipped
    report_definitions.json."""
    reports, by_parser = [], {}
    for rid, (parser, name, key) in REPORTS.items():
        if rid == 4260 or (parser in OPTIONAL and parser not in extra):
            continue
        code = FORMAT_CODES.get(rid, FORMAT_CODES.get(parser, "3"))
        if parser in by_parser:
            # A later id of a report already listed: one of its alternates, asked when the first is not found.
            by_parser[parser].setdefault("alternates", []).append({"report_id": rid, "report_key": key,
                                                                   "format_code": code})
            continue
        by_parser[parser] = {"name": name, "parser": parser, "report_id": rid, "report_key": key, "format_code": code}
        reports.append(by_parser[parser])
    return {"realpage": {"reports": reports}}


INVALID_END_DATE = "Invalid end date entered - end date must be less than or equal to the property date"

# activity kinds -> OneSite activity "Type" text
ACTIVITY_TYPE = {"email": "E-mail", "phone": "Phone call", "internet": "Internet", "text": "Text message",
                 "visit": "Visit"}
EVENT_TYPE = {"tour": "Visit (return)", "application": "Online Leasing Agreement",
              "approval": "Application Approved", "lease_signed": "Leased",
              "application_denied": "Application Denied", "application_canceled": "Application Canceled",
              "move_in": "Move-In", "move_out": "Move-Out", "notice": "Notice to Vacate",
              "renewal": "Renewal Signed"}


# ------------------------------------------------------------------------------ formatting helpers

def mdY(d):
    return "%02d/%02d/%04d" % (d.month, d.day, d.year) if d else ""


def parse_date(s):
    if not s:
        return None
    s = str(s).strip()
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%m/%Y", "%m%Y"):
        try:
            return dt.datetime.strptime(s[:19] if "T" in s else s, fmt).date()
        except ValueError:
            continue
    return None


def param(params, *names):
    low = {str(k).lower(): v for k, v in params.items()}
    for n in names:
        v = low.get(n.lower())
        if v not in (None, ""):
            return v
    return None


# ------------------------------------------------------------------------------ external layouts


# ------------------------------------------------------------------------------ title block


# ------------------------------------------------------------------------------ report data (adapter)


# ------------------------------------------------------------------------------ layouts (built-in)


def _ledger_sums(g, p, start, end):
    """Rent charged, other charges, payments (cents) per floorplan for postings dated in [start, end]."""
    out = {}
    for r in p.residencies:
        if not r.has_postings:
            continue
        if (r.months and g.months[r.months[-1][0]][0] < dt.date(start.year, start.month, 1)
                and not any(d >= start for d, _, _ in r.extra_charges)
                and not any(d >= start for d, _ in r.extra_payments)):
            continue        # nothing posted since (the clock posts its months as extra rows)
        charges, payments = g.materialize_ledger(r)
        o = out.setdefault(r.unit.fp.code, [0, 0, 0])
        for c in charges:
            if start <= c[1] <= end:
                if c[2] == "RENT":
                    o[0] += c[3]
                else:
                    o[1] += c[3]
        for pm in payments:
            if start <= pm[1] <= end:
                o[2] += pm[2]
    return {k: tuple(v) for k, v in out.items()}


# ------------------------------------------------------------------------------ shared layouts (onesite_reports)

def _D(cents):
    return Decimal(int(cents)) / 100


def ext_box_score(mod, g, p, start, end):
    as_of = g.as_of
    fps = []
    for fp in sorted(p.floorplans, key=lambda f: _group_order(p).index(f.group)):
        c = T.unit_counts(fp.units, as_of)
        s = T.floorplan_stats(fp, as_of)
        fps.append({"group": fp.group, "floorplan": fp.code, "units": c["total_units"],
                    "vacant_not_leased": c["vacant_not_leased"], "vacant_leased": c["vacant_leased"],
                    "model": c["model"], "down": c["down"], "occupied_no_ntv": c["occupied_no_notice"],
                    "ntv_not_leased": c["notice_not_leased"], "ntv_leased": c["notice_leased"],
                    "avg_sqft": s["avg_sqft"],
                    "avg_market_rent": _D(s["market_total"]) / s["units"] if s["units"] else None,
                    "avg_leased_rent": _D(s["in_place_total"]) / s["occupied"] if s["occupied"] else None})
    buf = io.BytesIO()
    mod.write_box_score(buf, p.name, end, fps, start_date=start, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def _group_order(p):
    order = []
    for fp in p.floorplans:
        if fp.group not in order:
            order.append(fp.group)
    return order


RR_STATUS = {"occupied": "Occupied no NTV", "ntv": "Occupied NTV", "ntv_leased": "Occupied NTV Leased",
             "vacant_leased": "Vacant Leased", "vacant": "Vacant", "model": "Model", "down": "Down"}


def _charges(le):
    out = []
    for code, amt in le.recurring:
        if code == "RENT":
            out.insert(0, {"code": "RENT", "lease_rent": _D(amt)})
        else:
            out.append({"code": code, "other": _D(amt)})
    return out


def _shapes(g, p):
    """The report-content quirks of property `p` (quirks.py): the keyword arguments of the Rent Roll and Delinquent
    and Prepaid writers. The cells' facts stay the same; only where and how they are printed changes."""
    quirks = getattr(g, "quirks", None)
    has = (lambda q: quirks is not None and quirks.has(q, p.key))
    style = "dmy" if has("report_dmy_dates") else ("serial" if has("report_date_serials") else "text")
    return {"drift": has("report_values_drift"), "date_style": style, "hide_names": has("report_hidden_names")}


def _code_amounts(le):
    """A lease's recurring charges as {code: dollars}, in billing order (a code billed twice is one column)."""
    out = {}
    for code, amt in le.recurring:
        out[code] = out.get(code, 0) + amt
    return {code: _D(cents) for code, cents in out.items()}


# quirk report_rent_roll_charge_columns: the Unit/Lease Status texts of the CSV sites save.
RR_CSV_STATUS = {"occupied": "Occupied", "ntv": "Occupied-NTV", "ntv_leased": "Occupied-NTVL",
                 "vacant_leased": "Vacant-Leased", "vacant": "Vacant", "model": "Model", "down": "Down"}


def ext_rent_roll_charge_columns(mod, g, p):
    """The Rent Roll as the CSV sites save (quirk report_rent_roll_charge_columns): one row per unit, one column per
    charge code; the same facts as the Trans Code layout (the current lease's codes, no applicants' rows)."""
    as_of = g.as_of
    shapes = _shapes(g, p)
    hidden = shapes["hide_names"]
    units = []
    for u in sorted(p.units, key=lambda x: (x.building["number"], x.number)):
        r = u.current
        d = {"unit": u.number, "floorplan": u.fp.code, "sqft": u.sqft, "status": RR_CSV_STATUS[u.status],
             "market_rent": _D(u.market_rent), "dep_on_hand": 0, "balance": 0}
        if r is not None:
            le = r.current_lease(as_of)
            on_notice = u.status in ("ntv", "ntv_leased")
            d.update({"name": None if hidden else r.name, "move_in": r.move_in,
                      "notice_for": r.move_out if on_notice else None, "move_out": None if on_notice else r.move_out,
                      "lease_start": le.start, "lease_end": le.end, "balance": _D(r.charge_total - r.payment_total),
                      "dep_on_hand": _D(r.deposit), "charges": _code_amounts(le)})
        units.append(d)
    buf = io.BytesIO()
    mod.write_rent_roll_charge_columns(buf, p.name, as_of, units, date_style=shapes["date_style"])
    return buf.getvalue()


def ext_rent_roll(mod, g, p):
    quirks = getattr(g, "quirks", None)
    if quirks is not None and quirks.has("report_rent_roll_charge_columns", p.key):
        return ext_rent_roll_charge_columns(mod, g, p)
    as_of = g.as_of
    units = []
    for u in sorted(p.units, key=lambda x: (x.building["number"], x.number)):
        r = u.current
        d = {"unit": u.number, "floorplan": u.fp.code, "sqft": u.sqft, "status": RR_STATUS[u.status],
             "market_rent": _D(u.market_rent)}
        if r is not None:
            le = r.current_lease(as_of)
            d.update({"name": r.name, "resident_id": str(r.id), "move_in": r.move_in, "move_out": r.move_out,
                      "lease_start": le.start, "lease_end": le.end, "balance": _D(r.charge_total - r.payment_total),
                      "dep_on_hand": _D(r.deposit), "charges": _charges(le)})
        f = u.future
        if f is not None:
            le = f.leases[0]
            d["others"] = [{"name": f.name, "status": "Applicant - Lease Signed", "move_in": f.move_in,
                            "lease_start": le.start, "lease_end": le.end, "charges": _charges(le)}]
        units.append(d)
    buf = io.BytesIO()
    mod.write_rent_roll(buf, p.name, as_of, units, company=MANAGEMENT_COMPANY, **_shapes(g, p))
    return buf.getvalue()


DQ_STATUS = {"current": "Current resident", "notice": "Notice", "former": "Former resident"}


def ext_delinquency(mod, g, p, simple, fiscal):
    rows = T.delinquency_rows(g, p)
    buf = io.BytesIO()
    if simple:
        res = []
        for x in rows:
            b = x["buckets"]
            res.append({"unit": x["unit"], "resident_id": str(x["resident_id"]), "name": x["name"],
                        "status": DQ_STATUS[x["status"]], "balance": _D(x["current_balance"]), "b0_30": _D(b[0]),
                        "b31_60": _D(b[1]), "b61_90": _D(b[2]), "over_90": _D(b[3]), "prepaid": _D(x["prepaid"])})
        mod.write_delinquency(buf, p.name, g.as_of, res, company=MANAGEMENT_COMPANY)
    else:
        accounts = []
        for x in rows:
            r = x["res"]
            codes = []
            for code in sorted(x["by_code"]):
                b = x["by_code"][code]
                # As the real report: a code's aging columns hold its net, its credit (negative) in the column of the
                # credit's age; the prepaid credit is this month's extra payment, so Current (T.aging_as_printed).
                aged = T.aging_as_printed(b)
                codes.append({"code": code, "description": CHARGE_CODES[code][2], "prepaid": _D(b[4]),
                              "nsf": code == "LATEFEE", "cash_basis": code == "DAMAGE",
                              "delinquent": _D(sum(b[:4])), "current": _D(aged[0]), "days_30": _D(aged[1]),
                              "days_60": _D(aged[2]), "days_90_plus": _D(aged[3])})
            late = sum(1 for rec in r.months if rec[6] is not None)
            accounts.append({"unit": x["unit"], "name": x["name"], "phone": r.phone, "email": r.email,
                             "resident_id": str(r.id), "status": DQ_STATUS[x["status"]], "move_in": r.move_in,
                             "move_out": r.move_out, "deposits_held": _D(r.deposit), "outstanding_deposit": _D(0),
                             "late_nsf": "%d/0" % late, "codes": codes})
        quirks = getattr(g, "quirks", None)
        markers = quirks is not None and quirks.has("report_value_markers", p.key)
        mod.write_delinquent_prepaid(buf, p.name, g.as_of, accounts, fiscal_period=fiscal, company=MANAGEMENT_COMPANY,
                                     markers=markers, **_shapes(g, p))
    return buf.getvalue()


def activity_rows(p, start, end, repeat_contacts=False):
    """Activity report rows (one per activity) -- shared by both layouts. `repeat_contacts` (quirk
    rpx_repeat_contacts): every 3rd prospect's first contact is followed by an E-mail 2 days later (not a lead)."""
    out = []
    for e in p.events:
        if repeat_contacts and e.kind == "lead" and e.prospect.id % 3 == 0 and start <= e.date + dt.timedelta(days=2) <= end:
            out.append({"date": e.date + dt.timedelta(days=2), "type": "E-mail", "unit": None,
                        "name": "%s, %s" % (e.prospect.last, e.prospect.first), "source": e.source,
                        "agent": e.agent, "notes": "Follow-up"})
        if not (start <= e.date <= end):
            continue
        if e.kind == "lead":
            typ = ACTIVITY_TYPE[e.prospect.channel]
        elif e.kind == "tour" and e.notes == "walk-in":
            continue      # a walk-in lead is one "Visit" row (lead + tour)
        else:
            typ = EVENT_TYPE[e.kind]
        name = "%s, %s" % (e.prospect.last, e.prospect.first) if e.prospect is not None else e.res.name
        unit = ("%s-%s" % (e.unit.building["number"], e.unit.number)) if e.unit else None
        note = {"lead": "First contact"}.get(e.kind)
        if e.kind == "notice" and e.res and e.res.move_out:
            note = "Notice for %s" % mdY(e.res.move_out)
        out.append({"date": e.date, "type": typ, "unit": unit, "name": name, "source": e.source,
                    "agent": e.agent, "notes": note})
    return out


def ext_activity(mod, g, p, start, end):
    quirks = getattr(g, "quirks", None)
    rows = activity_rows(p, start, end, repeat_contacts=quirks is not None and quirks.has("rpx_repeat_contacts", p.key))
    rows.sort(key=lambda a: (a["agent"] or "", a["date"]))
    buf = io.BytesIO()
    mod.write_activity(buf, p.name, start, end, rows, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


# prospect channel -> Leasing Activity Detail contact type
LEAD_CONTACT_TYPE = {"email": "E-mail", "phone": "Phone call", "internet": "Internet", "text": "Text message",
                     "visit": "Visit"}


def lead_detail_rows(p, start, end):
    """Leasing Activity Detail contacts of [start, end], grouped by consultant: a prospect's first contact (a New
    Prospect, of its channel's type, which is the guest card's Initial Contact Type; a walk-in's is one Visit, the
    tour too), a later tour (a Visit converting an off-site prospect), an application (Online Leasing), and the
    lease and the denial or cancellation as rows without a contact type, their 0/1 in Leases or Cancelled/Denied.
    Approvals print no row (the Activity report carries them)."""
    out = []
    for e in p.events:
        pr = e.prospect
        if pr is None or not (start <= e.date <= end):
            continue
        first = LEAD_CONTACT_TYPE[pr.channel]
        row = {"agent": e.agent or pr.agent, "date": e.date, "type": None, "off_site": False,
               "name": "%s, %s" % (pr.last, pr.first), "initial_type": first, "source": pr.source,
               "floorplan_group": pr.fp.group if pr.fp else None, "floorplan": pr.fp.code if pr.fp else None,
               "date_needed": pr.desired_move_in, "status": pr.outcome}
        if e.kind == "lead":
            row.update(type=first, new_prospect=True)
        elif e.kind == "tour":
            if e.notes == "walk-in":
                continue      # the walk-in's first contact is its Visit row
            row.update(type="Visit", off_site=True)
        elif e.kind == "application":
            row.update(type="Online Leasing")
        elif e.kind == "lease_signed":
            row.update(leases=1)
        elif e.kind in ("application_denied", "application_canceled"):
            row.update(cancelled=1, results="Denied" if e.kind == "application_denied" else "Cancelled")
        else:
            continue
        out.append(row)
    out.sort(key=lambda c: (c["agent"] or "", c["date"]))
    return out


def ext_leasing_activity_detail(mod, g, p, start, end):
    quirks = getattr(g, "quirks", None)
    buf = io.BytesIO()
    mod.write_leasing_activity_detail(buf, p.name, start, end, lead_detail_rows(p, start, end),
                                      data_only=quirks is not None and quirks.has("report_lead_detail_data_only", p.key),
                                      company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def monthly_counts(g, p, start, end):
    """Per floorplan code: occupancy snapshot, movement counts and ledger sums for [start, end]."""
    as_of = g.as_of
    out = {}
    led = _ledger_sums(g, p, start, end)
    for fp in p.floorplans:
        c = T.unit_counts(fp.units, as_of)
        s = T.floorplan_stats(fp, as_of)
        ls = led.get(fp.code, (0, 0, 0))
        out[fp.code] = {"floorplan": fp.name, "units": c["total_units"], "market_rent": _D(s["market_total"]),
                        "base_rent": _D(s["in_place_total"]), "sqft": sum(u.sqft for u in fp.units),
                        "occupied_no_ntv": c["occupied_no_notice"], "vacant_not_leased": c["vacant_not_leased"],
                        "vacant_leased": c["vacant_leased"], "ntv_not_leased": c["notice_not_leased"],
                        "ntv_leased": c["notice_leased"], "vacant_admin": c["model"], "vacant_down": c["down"],
                        "move_ins": 0, "move_outs": 0, "cancellations": 0, "renewals": 0, "leases": 0, "notices": 0,
                        "rent_charged": _D(ls[0]), "other_charges": _D(ls[1]), "payments": _D(ls[2]),
                        "other_credits": _D(0), "deposits_in": _D(0), "deposits_out": _D(0)}
    for e in p.events:
        if start <= e.date <= end and e.kind in ("application_denied", "application_canceled") and e.prospect:
            out[e.prospect.fp.code]["cancellations"] += 1
    key = {"move_in": "move_ins", "move_out": "move_outs", "notice": "notices", "renewal": "renewals",
           "new_lease": "leases"}
    events = []
    label = {"new_lease": "Lease approved", "move_in": "Moved In", "move_out": "Moved Out",
             "notice": "Move Out Notice", "renewal": "Renewed Lease"}
    for d, kind, r in sorted(T.resident_events(p, start, min(end, as_of)), key=lambda x: (x[0], x[2].unit.number)):
        out[r.unit.fp.code][key[kind]] += 1
        events.append({"unit": r.unit.number, "status": {"current": "Current", "future": "Applicant",
                                                         "former": "Former"}[r.status],
                       "name": r.name, "action": label[kind], "date": d})
    return out, events


def ext_monthly_summary(mod, g, p, start, end):
    fps, events = monthly_counts(g, p, start, end)
    buf = io.BytesIO()
    mod.write_monthly_activity_summary(buf, p.name, start, end, [fps[fp.code] for fp in p.floorplans], events,
                                       company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def expiring_leases(g, p, start_month, end_month):
    """(unit, residency, lease, is_mtm) for current leases that are MTM/expired or end within the month range."""
    as_of = g.as_of
    out = []
    for u in p.units:
        r = u.current
        if r is None:
            continue
        le = r.current_lease(as_of)
        if le.mtm or le.end < as_of:
            out.append((u, r, le, True))
        elif start_month <= dt.date(le.end.year, le.end.month, 1) <= end_month:
            out.append((u, r, le, False))
    out.sort(key=lambda x: (x[2].end, x[0].number))
    return out


def ext_lease_expiration(mod, g, p, start_month, end_month):
    leases = []
    for u, r, le, mtm in expiring_leases(g, p, start_month, end_month):
        decision = "Vacating" if r.move_out else ("Renewed" if le.next is not None else "Unknown")
        prior = le.prior
        leases.append({"unit": u.number, "floorplan": u.fp.code, "sqft": u.sqft, "name": r.name, "phone": r.phone,
                       "email": r.email, "term": "MTM" if mtm else le.term, "lease_end": le.end,
                       "move_in": r.move_in, "expected_move_out": r.move_out, "do_not_renew": False,
                       "late_nsf": "%d/0" % sum(1 for rec in r.months if rec[6] is not None),
                       "last_rent_change": le.start if prior is not None else None,
                       "market_rent": _D(u.market_rent), "lease_rent": _D(le.rent),
                       "other_charges": _D(le.total - le.rent), "balance": _D(r.charge_total - r.payment_total),
                       "decision": decision})
    buf = io.BytesIO()
    mod.write_lease_expiration(buf, p.name, g.as_of, leases, with_decision=True, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


# ------------------------------------------------------------------------------ maintenance and expenses

MR_LEASE_STATUS = {True: "Pre-leased", False: "Not leased"}


def _order_lines(wo):
    return [{"number": "%s-%d" % (wo.unit.number, k + 1), "description": ("Paint", "Clean", "Carpet", "Punch list",
                                                                           "Appliances")[k % 5]}
            for k in range(wo.work_orders)]


def ext_make_ready(mod, g, p):
    """Make Ready Summary: the open turns (vacated, not made ready) and the notice units about to turn
    (negative Days Vacant: no turn open yet)."""
    as_of = g.as_of
    m = M.of(g, p)
    rows = []
    for wo in m.turns:
        if not wo.is_open:
            continue
        u = wo.unit
        rows.append({"unit": u.number, "floorplan": u.fp.code, "sqft": u.sqft, "unit_status": RR_STATUS[u.status],
                     "lease_status": MR_LEASE_STATUS[u.future is not None], "vacated": wo.vacated,
                     "days_vacant": (as_of - wo.vacated).days, "due": wo.due, "work_orders": wo.work_orders,
                     "assigned_to": wo.assigned_to, "status": wo.status, "orders": _order_lines(wo)})
    for u, r in m.upcoming:
        rows.append({"unit": u.number, "floorplan": u.fp.code, "sqft": u.sqft, "unit_status": RR_STATUS[u.status],
                     "lease_status": MR_LEASE_STATUS[u.future is not None], "vacated": r.move_out,
                     "days_vacant": (as_of - r.move_out).days,
                     "due": r.move_out + dt.timedelta(days=M.MAKE_READY_DUE_DAYS), "work_orders": 0,
                     "assigned_to": None, "status": "Scheduled"})
    rows.sort(key=lambda x: x["unit"])
    buf = io.BytesIO()
    mod.write_make_ready_summary(buf, p.name, as_of, rows, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def ext_closed_make_ready(mod, g, p, start, end):
    """Closed Make Ready Summary: the turns completed in [start, end] (the simulator keeps M.WORK_ORDER_MONTHS)."""
    rows = []
    for wo in M.of(g, p).turns:
        if wo.is_open or not (start <= wo.completed <= end):
            continue
        rows.append({"unit": wo.unit.number, "floorplan": wo.unit.fp.code, "vacated": wo.vacated, "due": wo.due,
                     "completed": wo.completed, "days_to_complete": wo.days_to_complete,
                     "work_orders": wo.work_orders, "amount_charged": _D(wo.amount_cents),
                     "completed_by": wo.assigned_to, "orders": _order_lines(wo)})
    rows.sort(key=lambda x: (x["unit"], x["vacated"]))
    buf = io.BytesIO()
    mod.write_closed_make_ready(buf, p.name, start, end, rows, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


EXPENSE_GROUPS = [("61", "Payroll"), ("62", "Administrative"), ("63", "Repairs & Maintenance"), ("64", "Turnover"),
                  ("65", "Contract Services"), ("66", "Marketing"), ("67", "Utilities"), ("68", "Insurance"),
                  ("69", "Taxes"), ("70", "Management Fees")]


def ext_income_statement(mod, g, p, month):
    """Income Statement by GL for the fiscal period `month` (first day): income from the ledger's charges posted in
    the month, expenses as generated (month to date for the as-of month); budget per unit, YTD from January."""
    as_of = g.as_of
    key = month_key(month)
    expenses = M.of(g, p).expenses
    end = min(month_end(month), as_of)
    n_units = len(p.units)
    ytd_months = [month_key(add_months(month, -k)) for k in range(month.month)]
    # income: charges posted in the month (ledger sums), by the income accounts of the charge codes
    rent = other = 0
    for r_, o_, _ in _ledger_sums(g, p, month, end).values():
        rent += r_
        other += o_
    income = [{"account": GL_ACCOUNTS["RENT"], "name": "Rental Income", "actual": _D(rent), "budget": None,
               "ytd": None, "ytd_budget": None},
              {"account": "4400-0000", "name": "Other Resident Income", "actual": _D(other), "budget": None,
               "ytd": None, "ytd_budget": None}]
    groups = []
    for prefix, heading in EXPENSE_GROUPS:
        accounts = []
        for account, name, per_unit, _share in M.EXPENSE_ACCOUNTS:
            if not account.startswith(prefix) or account not in expenses.get(key, {}):
                continue
            budget = int(round(per_unit * n_units * 100))
            ytd = sum(expenses.get(mk, {}).get(account, 0) for mk in ytd_months)
            accounts.append({"account": account, "name": name, "actual": _D(expenses[key][account]),
                             "budget": _D(budget), "ytd": _D(ytd), "ytd_budget": _D(budget * len(ytd_months))})
        if accounts:
            groups.append({"heading": heading, "accounts": accounts})
    sections = [{"heading": "INCOME", "groups": [{"heading": "Rental Income", "accounts": income}]},
                {"heading": "EXPENSES", "groups": groups}]
    buf = io.BytesIO()
    mod.write_income_statement(buf, p.name, end, sections, fiscal_period="%02d%04d" % (month.month, month.year),
                               company=MANAGEMENT_COMPANY)
    return buf.getvalue()


# ------------------------------------------------------------------------------ the later layouts (3842, 4020, 4279, 4156, 4048)

def _week_moves(p, start, end):
    """Scheduled move-ins (signed future households) and move-outs (notice dates of households in place) dated in
    [start, end]."""
    ins = sum(1 for u in p.units if u.future is not None and u.future.move_in and start <= u.future.move_in <= end)
    outs = sum(1 for u in p.units if u.current is not None and u.current.move_out and start <= u.current.move_out <= end)
    return ins, outs


def ext_projected_occupancy(mod, g, p, weeks):
    """Projected Occupancy: occupied units as of the property date (the Box Score's occupied), then a week at a time
    the scheduled move-ins and move-outs after it (the first week starts the day after the property date)."""
    as_of = g.as_of
    occupied = T.unit_counts(p.units, as_of)["occupied"]
    rows = []
    for k in range(weeks):
        start = as_of + dt.timedelta(days=1 + 7 * k)
        ins, outs = _week_moves(p, start, start + dt.timedelta(days=6))
        rows.append({"start": start, "move_ins": ins, "move_outs": outs})
    buf = io.BytesIO()
    mod.write_projected_occupancy(buf, p.name, as_of, len(p.units), occupied, rows, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def _ledger_by_code(g, p, start, end):
    """Charges per code and payments (cents) posted in [start, end], over every household's ledger."""
    charges, payments = {}, 0
    for r in p.residencies:
        if not r.has_postings:
            continue
        cs, ps = g.materialize_ledger(r)
        for c in cs:
            if start <= c[1] <= end:
                charges[c[2]] = charges.get(c[2], 0) + c[3]
        for pm in ps:
            if start <= pm[1] <= end:
                payments += pm[2]
    return charges, payments


def ext_monthly_transaction_summary(mod, g, p, month):
    """Monthly Transaction Summary for the fiscal period `month`: the ledger's charges per transaction code and its
    payments, this month (month to date for the property month) and year to date before it, the same postings
    the Income Statement's income lines sum."""
    end = min(month_end(month), g.as_of)
    this_charges, this_payments = _ledger_by_code(g, p, month, end)
    year = dt.date(month.year, 1, 1)
    prior_charges, prior_payments = ({}, 0) if month == year else _ledger_by_code(g, p, year, month - dt.timedelta(days=1))
    codes = []
    for code in sorted(set(this_charges) | set(prior_charges), key=lambda c: GL_ACCOUNTS[c]):
        codes.append({"group": "C", "code": code, "description": CHARGE_CODES[code][2], "gl": GL_ACCOUNTS[code],
                      "ytd_prior": _D(prior_charges.get(code, 0)), "period": _D(this_charges.get(code, 0))})
    categories = [{"heading": "CHARGES", "codes": codes},
                  {"heading": "PAYMENTS", "codes": [{"group": "P", "code": "PAYMENT", "description": "Resident payment",
                                                     "gl": "1150-0000", "ytd_prior": _D(prior_payments),
                                                     "period": _D(this_payments)}]}]
    buf = io.BytesIO()
    mod.write_monthly_transaction_summary(buf, p.name, end, categories,
                                          fiscal_period="%02d%04d" % (month.month, month.year),
                                          company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def ext_lost_rent_summary(mod, g, p, month):
    """Lost Rent Summary for the fiscal period `month`, a row per unit: its market rent, the rent of the lease in
    place (0 when vacant), the RENT posted to the unit's households in the month; loss to lease / gain to lease for
    an occupied unit (market against lease rent) and the whole market rent as vacancy for one that is not."""
    end = min(month_end(month), g.as_of)
    rent_by_unit = {}
    for r in p.residencies:
        if not r.months:
            continue
        for c in g.materialize_ledger(r)[0]:
            if c[2] == "RENT" and month <= c[1] <= end:
                rent_by_unit[r.unit.id] = rent_by_unit.get(r.unit.id, 0) + c[3]
    units = []
    for u in sorted(p.units, key=lambda x: (x.building["number"], x.number)):
        r = u.current
        market = u.market_rent
        lease = r.current_lease(g.as_of).rent if r is not None else 0
        days = (g.as_of - r.move_in).days if r is not None and r.move_in else 0
        units.append({"unit": "%s-%s" % (u.building["number"], u.number), "resident": r.name if r else None,
                      "move_in": r.move_in if r else None, "move_out": r.move_out if r else None,
                      "days_occupied": days, "market_rent": _D(market), "lease_rent": _D(lease),
                      "rent_charged": _D(rent_by_unit.get(u.id, 0)),
                      "loss": _D(max(market - lease, 0)) if r else _D(0),
                      "gain": _D(max(lease - market, 0)) if r else _D(0),
                      "vacancy": _D(0) if r else _D(market), "vacancy_adjustments": _D(0), "concessions": _D(0),
                      "other": _D(0)})
    buf = io.BytesIO()
    mod.write_lost_rent_summary(buf, p.name, end, units, fiscal_period="%02d%04d" % (month.month, month.year),
                                location=p.key.upper()[:8], company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def renewal_leases(g, p, start, end, transferring=False):
    """The leases in place whose end date is in [start, end] and the month-to-month ones, with the renewal decision
    the world holds: Vacating (a move-out date), Renewed (the next lease is signed), MTM (month to month, nothing
    decided), else Unknown. `transferring` (quirk report_transferring_decision): the first household on notice is
    printed Transferring instead of Vacating (it moves to another unit of the property)."""
    out = []
    transfer_left = transferring
    for u, r, le, mtm in expiring_leases(g, p, dt.date(start.year, start.month, 1), dt.date(end.year, end.month, 1)):
        if not mtm and not (start <= le.end <= end):
            continue
        nxt = le.next
        decision = "Vacating" if r.move_out else ("Renewed" if nxt is not None else ("MTM" if mtm else "Unknown"))
        if decision == "Vacating" and transfer_left:
            decision, transfer_left = "Transferring", False
        prior = le.prior
        out.append({"unit": "%s-%s" % (u.building["number"], u.number), "floorplan": u.fp.code, "name": r.name,
                    "term": "MTM" if mtm else le.term, "balance": _D(r.charge_total - r.payment_total),
                    "actual_rent": _D(le.rent), "other_billings": _D(le.total - le.rent),
                    "last_increase": le.start if prior is not None else None,
                    "last_increase_amount": _D(le.rent - prior.rent) if prior is not None else None,
                    "market_rent": _D(u.market_rent), "move_in": r.move_in, "lease_end": le.end,
                    "decision": decision,
                    "new_lease_start": nxt.start if decision == "Renewed" else None,
                    "new_lease_term": nxt.term if decision == "Renewed" else None,
                    "new_rent": _D(nxt.rent) if decision == "Renewed" else None,
                    "new_other_billings": _D(nxt.total - nxt.rent) if decision == "Renewed" else None,
                    "consultant": r.agent})
    return out


def ext_renewal_detail(mod, g, p, start, end):
    """Lease Expiration/Renewal Detail (Excel), the data-only workbook of 4156."""
    buf = io.BytesIO()
    quirks = getattr(g, "quirks", None)
    transferring = quirks is not None and quirks.has("report_transferring_decision", p.key)
    mod.write_lease_expiration_renewal_excel(buf, p.name, start, end, renewal_leases(g, p, start, end, transferring),
                                             company=MANAGEMENT_COMPANY, summary_figures=True, as_of=g.as_of,
                                             real_sheets=True)
    return buf.getvalue()


LEASE_STATUS = {"current": "Current resident", "future": "Applicant - Lease Signed", "former": "Former resident"}


def ext_lease_details(mod, g, p):
    """Lease Details (custom columns): the lease in place of every household in possession and the signed lease of
    every future household, one row each, in the export's default columns."""
    as_of = g.as_of
    leases = []
    for u in sorted(p.units, key=lambda x: (x.building["number"], x.number)):
        for r in (u.current, u.future):
            if r is None:
                continue
            le = r.current_lease(as_of) if r is u.current else r.leases[0]
            leases.append({"lease_id": str(le.id), "floorplan": u.fp.code, "status": LEASE_STATUS[r.status],
                           "start": le.start, "end": "MTM" if le.mtm else le.end, "move_in": r.move_in,
                           "move_out": r.move_out, "applied": le.applied, "approved": None,
                           "notice": r.notice_given, "term": le.term, "rent": _D(le.rent), "total": _D(le.total),
                           "balance": _D(r.charge_total - r.payment_total) if r is u.current else _D(0),
                           "notice_type": "Notice to vacate" if r.notice_given else None, "reason": None})
    buf = io.BytesIO()
    mod.write_lease_details(buf, leases)
    return buf.getvalue()


def _fiscal_month(g, params):
    fiscal = str(param(params, "AR_FiscalPeriodSelect", "FiscalPeriod") or g.as_of.strftime("%m%Y"))
    month = parse_date(fiscal)
    if month is None or month > g.as_of or month < g.months[0][0]:
        month = g.as_of
    return month_start(month)


# ------------------------------------------------------------------------------ entry point

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib")))
import onesite_reports as LAYOUTS  # noqa: E402


def build_report(g, p, report_id, params):
    """Report file bytes for one (property, report, parameters) request."""
    kind = REPORTS[report_id][0]
    as_of = g.as_of
    mod = LAYOUTS
    if kind == "box_score":
        end = parse_date(param(params, "End_Date", "EndDate", "enddate", "AsOfDate")) or as_of
        start = parse_date(param(params, "Start_Date", "StartDate", "startdate")) or dt.date(end.year, end.month, 1)
        if end > as_of:
            buf = io.BytesIO()
            mod.write_box_score_error(buf, p.name, as_of, start, end, INVALID_END_DATE, company=MANAGEMENT_COMPANY)
            return buf.getvalue()
        return ext_box_score(mod, g, p, start, end)
    if kind == "rent_roll":
        return ext_rent_roll(mod, g, p)
    if kind == "delinquency":
        fiscal = str(param(params, "FiscalPeriod", "AR_FiscalPeriodSelect") or as_of.strftime("%m%Y"))
        return ext_delinquency(mod, g, p, report_id == 4260, fiscal)
    if kind == "activity":
        end = min(parse_date(param(params, "enddate", "End_Date", "EndDate")) or as_of, as_of)
        start = parse_date(param(params, "startdate", "Start_Date", "StartDate")) or (end - dt.timedelta(days=29))
        return ext_activity(mod, g, p, start, end)
    if kind == "leasing_activity_detail":
        end = min(parse_date(param(params, "enddate", "End_Date", "EndDate")) or as_of, as_of)
        start = parse_date(param(params, "startdate", "Start_Date", "StartDate")) or (end - dt.timedelta(days=29))
        return ext_leasing_activity_detail(mod, g, p, start, end)
    if kind == "monthly_summary":
        acc = parse_date(param(params, "AccStartDate")) or dt.date(as_of.year, as_of.month, 1)
        end = min(parse_date(param(params, "AccEndDate", "EndDate", "End_Date")) or as_of, as_of)
        return ext_monthly_summary(mod, g, p, acc, end)
    if kind == "lease_expiration":
        sm = parse_date(param(params, "startmonth", "StartMonth")) or dt.date(as_of.year, as_of.month, 1)
        em = parse_date(param(params, "endmonth", "EndMonth"))
        if em is None:
            y, m = sm.year + (sm.month + 10) // 12, (sm.month + 10) % 12 + 1
            em = dt.date(y, m, 1)
        sm, em = dt.date(sm.year, sm.month, 1), dt.date(em.year, em.month, 1)
        return ext_lease_expiration(mod, g, p, sm, em)
    if kind == "make_ready_summary":
        return ext_make_ready(mod, g, p)
    if kind == "closed_make_ready":
        end = min(parse_date(param(params, "EndDate", "End_Date", "enddate")) or as_of, as_of)
        start = parse_date(param(params, "StartDate", "Start_Date", "startdate")) or M.horizon_start(as_of)
        return ext_closed_make_ready(mod, g, p, start, end)
    if kind == "income_statement":
        fiscal = str(param(params, "FiscalPeriod", "AR_FiscalPeriodSelect") or as_of.strftime("%m%Y"))
        month = parse_date(fiscal)
        if month is None or month > as_of or month < g.months[0][0]:
            month = month_start(as_of)
        return ext_income_statement(mod, g, p, month_start(month))
    if kind == "projected_occupancy":
        weeks = param(params, "weeksProjectedCount")
        weeks = int(weeks) if str(weeks or "").isdigit() and 0 < int(weeks) <= 52 else 12
        return ext_projected_occupancy(mod, g, p, weeks)
    if kind == "monthly_transaction_summary":
        return ext_monthly_transaction_summary(mod, g, p, _fiscal_month(g, params))
    if kind == "lost_rent_summary":
        return ext_lost_rent_summary(mod, g, p, _fiscal_month(g, params))
    if kind == "renewal_detail":
        start = parse_date(param(params, "IPVC_LEABEGINDATE")) or dt.date(as_of.year, as_of.month, 1)
        end = parse_date(param(params, "IPVC_LEAENDDATE")) or add_months(dt.date(as_of.year, as_of.month, 1), 4)
        return ext_renewal_detail(mod, g, p, start, end)
    if kind == "lease_details":
        return ext_lease_details(mod, g, p)
    raise KeyError(report_id)
