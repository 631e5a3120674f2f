"""RealPage OneSite report files (.xlsx) for the Reporting REST flow.

Two halves:
  * report_data(...) maps the generated portfolio to plain dicts, one per report (numbers in dollars,
    dates as datetime.date) -- this is the adapter;
  * the layout functions turn those dicts into OneSite-shaped workbooks (title block, two-row headers,
    group rows, subtotals/totals, money as text).  If scripts/lib/onesite_reports.py exposes a layout
    for a report, it is used instead of the built-in one (see _external_layout).
"""

import datetime as dt
import io
import os
import sys
import threading
from decimal import Decimal

from . import truth as T
from .portfolio import MANAGEMENT_COMPANY, CHARGE_CODES, month_key
from .xlsx import Workbook

REPORTS = {
    4238: ("box_score", "Box Score", "446266C0-D572-4D8A-A6DA-310C0AE61037"),
    4043: ("rent_roll", "Rent Roll", "A6F61299-E960-4235-9DC2-44D2C2EF4F99"),
    4260: ("delinquency", "Delinquency", "89A3C427-BE71-4A05-9D2B-BDF3923BF756"),
    4009: ("delinquency", "Delinquent and Prepaid", "584A377E-0352-470D-8BF0-754F41B250A3"),
    3837: ("activity", "Activity Report", "B29B7C76-04B8-4D6C-AABC-62127F0CAE63"),
    3877: ("monthly_summary", "Monthly Activity Summary", "E41626AB-EC0F-4F6C-A6EA-D7A93909AA9B"),
    3838: ("lease_expiration", "Lease Expiration", "89545A3A-C28A-49CC-8791-396AE71AB422"),
}

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


def usd(cents, dollar=True):
    """cents -> '$1,234.50' / '($1,234.50)' (text money as OneSite prints it)."""
    neg = cents < 0
    s = "{:,.2f}".format(abs(cents) / 100.0)
    if dollar:
        s = "$" + s
    return "(%s)" % s if neg else s


def pct_text(n, d):
    return "%.2f" % (100.0 * n / d) if d else "0.00"


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

_EXT = None
_EXT_LOCK = threading.Lock()


def _external_layout(name):
    """The shared OneSite layout module (scripts/lib/onesite_reports.py) when present."""
    with _EXT_LOCK:
        # Under the lock: a request arriving while another thread imports the module must wait for it,
        # or it would see "unavailable" and serve the built-in layout (different bytes for the same report).
        return _load_external_layout(name)


def _load_external_layout(name):
    global _EXT
    if _EXT is None:
        _EXT = False
        if os.environ.get("PMS_SIM_BUILTIN_LAYOUTS") != "1":
            lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib")
            if os.path.exists(os.path.join(lib, "onesite_reports.py")):
                sys.path.insert(0, os.path.abspath(lib))
                try:
                    import onesite_reports  # noqa
                    _EXT = onesite_reports
                except Exception as e:  # pragma: no cover
                    sys.stderr.write("pms_sim: onesite_reports unusable (%s); using built-in layouts\n" % e)
    if _EXT and (name is None or hasattr(_EXT, name)):
        return _EXT
    return None


# ------------------------------------------------------------------------------ title block

def title_block(sh, p, title, code, lines, as_of, product="OneSite Rents v3.0"):
    sh.append([product])
    sh.append(["%s - %s" % (MANAGEMENT_COMPANY, p.name)])
    sh.append(["Page 1 of 1"])
    sh.append(["%d/%d/%04d  6:%02d:%02dAM" % (as_of.month, as_of.day, as_of.year, 58, 21)])
    sh.append([title])
    sh.append([code])
    for ln in lines:
        sh.append([ln])
    sh.blank()


# ------------------------------------------------------------------------------ report data (adapter)

def box_score_data(g, p, start, end):
    as_of = g.as_of
    groups = []
    order = []
    for fp in p.floorplans:
        if fp.group not in order:
            order.append(fp.group)
    for grp in order:
        rows = []
        for fp in [f for f in p.floorplans if f.group == grp]:
            c = T.unit_counts(fp.units, as_of)
            s = T.floorplan_stats(fp, as_of)
            rows.append({"floorplan": fp.code, "floorplan_name": fp.name, "counts": c, "stats": s})
        groups.append({"group": grp, "floorplans": rows})
    leasing = {}
    for d, kind, r in T.resident_events(p, start, min(end, as_of)):
        L = leasing.setdefault(r.unit.fp.group, {"move_ins": 0, "move_outs": 0, "renewals": 0, "leases": 0})
        k = {"move_in": "move_ins", "move_out": "move_outs", "renewal": "renewals", "new_lease": "leases"}.get(kind)
        if k:
            L[k] += 1
    return {"property": p, "as_of": as_of, "start": start, "end": end, "groups": groups,
            "totals": T.unit_counts(p.units, as_of), "leasing": leasing}


# ------------------------------------------------------------------------------ layouts (built-in)

def _stats_cells(c, s):
    n = c["total_units"]
    mr = (s["market_total"] * 2 + n) // (2 * n) if n else 0
    lr = (s["in_place_total"] * 2 + s["occupied"]) // (2 * s["occupied"]) if s["occupied"] else 0
    leased = c["vacant_leased"] + c["occupied_no_notice"] + c["notice_leased"]
    return [n, "%.0f" % s["avg_sqft"] if n else "0", c["vacant"], c["vacant_not_leased"], c["vacant_leased"],
            c["model"], c["down"], c["occupied"], c["occupied_no_notice"], c["notice_not_leased"],
            c["notice_leased"], pct_text(c["occupied"], n), usd(mr), usd(lr), pct_text(leased, n), usd(lr)]


def _merge_stats(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v if k != "avg_sqft" else None
    return out


def layout_box_score(d):
    wb = Workbook()
    sh = wb.add_sheet("Box Score")
    p = d["property"]
    title_block(sh, p, "BOXSCORE", "120.080.305",
                ["Start Date: %s   End Date: %s" % (mDY(d["start"]), mDY(d["end"])),
                 "As of %s" % mDY(d["as_of"]),
                 "Parameters:\nSubproperties: ALL\nShow Unit Designations: Yes"], d["as_of"])
    sh.append(["Unit Status"])
    h1 = ["Floor Plan\nGroup", "Floor Plan", "Units", "Avg\nSQFT", "Vacant", "", "", "", "", "Occupied", "", "", "",
          "Occupancy", "Avg Market", "Avg Leased", "Net Leased", "Avg.\nEffective"]
    h2 = ["", "", "", "", "Total Vacant", "Not Leased", "Leased", "Model/Admin", "Down", "Total Occupied",
          "No NTV", "NTV-NL", "NTV-L", "Percent", "Rent", "Rent", "Percent", "Rent"]
    r1 = sh.append(h1)
    sh.append(h2)
    sh.merge(r1, 4, r1, 8)
    sh.merge(r1, 9, r1, 12)
    prop_stats = None
    for grp in d["groups"]:
        gstats = None
        gcounts = None
        for i, fr in enumerate(grp["floorplans"]):
            s = fr["stats"]
            # avg sqft over the group recomputed from unit counts
            sh.append([grp["group"] if i == 0 else "", fr["floorplan"]] + _stats_cells(fr["counts"], s))
            gstats = s if gstats is None else _merge_stats(gstats, s)
            gcounts = dict(fr["counts"]) if gcounts is None else {k: gcounts[k] + v for k, v in fr["counts"].items()}
        gs = dict(gstats)
        gs["avg_sqft"] = _avg_sqft(d["property"], grp["group"])
        sh.append(["Total", grp["group"]] + _stats_cells(gcounts, gs))
        prop_stats = gs if prop_stats is None else _merge_stats(prop_stats, gs)
    ps = dict(prop_stats)
    ps["avg_sqft"] = _avg_sqft(d["property"], None)
    sh.append(["Property Totals", ""] + _stats_cells(d["totals"], ps))
    sh.blank()

    c = d["totals"]
    n = c["total_units"]
    sh.append(["Availability/Exposure"])
    sh.append(["", "Number", "%"])
    net_exp = c["vacant"] - c["vacant_leased"] + c["on_notice"] - c["notice_leased"]
    ctrl = net_exp - c["model"] - c["down"]
    for label, v in (("Total Vacant Units", c["vacant"]), ("Vacant Units Leased", c["vacant_leased"]),
                     ("Occupied On-Notice", c["on_notice"]), ("Occupied On-Notice Pre-Leased", c["notice_leased"]),
                     ("Model/Admin", c["model"]), ("Down", c["down"]), ("Net Exposure", net_exp),
                     ("Controllable Availability", ctrl)):
        sh.append([label, v, pct_text(v, n)])
    sh.blank()
    sh.append(["Vacant Units Make Ready Status"])
    sh.append(["", "Number", "% of Vacant"])
    vac = c["vacant_ready"] + c["vacant_not_ready"]
    sh.append(["Made Ready", c["vacant_ready"], pct_text(c["vacant_ready"], vac)])
    sh.append(["Not Made Ready", c["vacant_not_ready"], pct_text(c["vacant_not_ready"], vac)])
    sh.append(["Total Vacant (excl. Model/Admin, Down)", vac, pct_text(vac, vac)])
    sh.blank()

    sh.append(["Leasing"])
    sh.append(["Floor Plan\nGroup", "Units", "Move-\nIns", "Move-\nOuts", "Net\nChange", "Signed\nRenewals",
               "Leases"])
    tot = [0, 0, 0, 0, 0, 0]
    for grp in d["groups"]:
        L = d["leasing"].get(grp["group"], {"move_ins": 0, "move_outs": 0, "renewals": 0, "leases": 0})
        units = sum(fr["counts"]["total_units"] for fr in grp["floorplans"])
        row = [units, L["move_ins"], L["move_outs"], L["move_ins"] - L["move_outs"], L["renewals"], L["leases"]]
        tot = [a + b for a, b in zip(tot, row)]
        sh.append([grp["group"]] + row)
    sh.append(["Total"] + tot)
    sh.blank()

    as_of = d["as_of"]
    sh.append(["Vacancies"])
    sh.append(["Unit", "Floor Plan", "Status", "Move-Out", "Pre-Leased", "Make Ready", "Market Rent",
               "Days Vacant", "Estimated\nVacancy Cost"])
    for u in sorted(p.units, key=lambda x: x.number):
        if not u.is_vacant:
            continue
        dv = u.days_vacant(as_of)
        sh.append([u.number, u.fp.code, {"vacant": "Vacant", "vacant_leased": "Vacant Leased", "model": "Model",
                                          "down": "Down"}[u.status],
                   mDY(u.vacant_since), "Yes" if u.status == "vacant_leased" else "No",
                   mDY(u.made_ready) if u.made_ready else "", usd(u.market_rent), dv,
                   usd(int(u.market_rent / 30.42 * dv))])
    sh.append(["Total Vacancies: %d" % c["vacant"]])
    sh.blank()
    sh.append(["Notice to Vacate"])
    sh.append(["Unit", "Floor Plan", "Name", "Notice Given", "Move-Out", "Pre-Leased", "Market Rent"])
    for u in sorted(p.units, key=lambda x: x.number):
        if not u.on_notice:
            continue
        r = u.current
        sh.append([u.number, u.fp.code, r.name, mDY(r.notice_given), mDY(r.move_out),
                   "Yes" if u.status == "ntv_leased" else "No", usd(u.market_rent)])
    sh.append(["Total Notices: %d" % c["on_notice"]])
    return wb


def _avg_sqft(p, group):
    us = [u for u in p.units if group is None or u.fp.group == group]
    return sum(u.sqft for u in us) / len(us) if us else 0


def mDY(d):
    return mdY(d)


def layout_invalid_box_score(p, as_of, start, end):
    wb = Workbook()
    sh = wb.add_sheet("Box Score")
    title_block(sh, p, "BOXSCORE", "120.080.305",
                ["Start Date: %s   End Date: %s" % (mdY(start) if start else "", mdY(end) if end else "")], as_of)
    sh.append([INVALID_END_DATE])
    return wb


def layout_rent_roll(g, p, as_of):
    wb = Workbook()
    sh = wb.add_sheet("Rent Roll")
    title_block(sh, p, "RENT ROLL DETAIL", "120.080.102",
                ["As of %s" % mdY(as_of),
                 "Parameters:\nReport Type: Details + Summary\nMarket Rent Type: Market + Addl.\nExclude Formers: Yes"],
                as_of)
    h1 = ["Bldg", "Unit", "Floor Plan", "Unit", "SQFT", "Resh ID", "Lease ID", "Unit/Lease", "Name", "Move-In",
          "Move-Out", "Lease", "Lease", "Market", "Lease", "Other Charges/", "Total", "Dep on", "Balance"]
    h2 = ["", "", "", "Designation", "", "", "", "Status", "", "", "", "Start", "End", "+ Addl.", "Rent", "Credits",
          "Billing", "Hand", ""]
    sh.append(h1)
    sh.append(h2)
    status_text = {"occupied": "Occupied no NTV", "ntv": "Occupied NTV", "ntv_leased": "Occupied NTV Leased",
                   "vacant_leased": "Vacant Leased", "vacant": "Vacant", "model": "Model", "down": "Down"}
    tot_mr = tot_lr = tot_other = tot_bal = tot_dep = 0
    n_units = 0
    for bldg in p.buildings:
        units = sorted([u for u in p.units if u.building is bldg], key=lambda x: x.number)
        if not units:
            continue
        sh.append(["Building %s" % bldg["number"]])
        for u in units:
            n_units += 1
            r = u.current
            tot_mr += u.market_rent
            if r is not None:
                le = r.current_lease(as_of)
                other = le.total - le.rent
                bal = r.charge_total - r.payment_total
                tot_lr += le.rent
                tot_other += other
                tot_bal += bal
                tot_dep += r.deposit
                sh.append([bldg["number"], u.number, u.fp.code, u.designation, u.sqft, r.id, le.id,
                           status_text[u.status], r.name, mdY(r.move_in), mdY(r.move_out) if r.move_out else "",
                           mdY(le.start), mdY(le.end) if not le.mtm else "MTM", usd(u.market_rent), usd(le.rent),
                           usd(other), usd(le.total), usd(r.deposit), usd(bal)])
            else:
                sh.append([bldg["number"], u.number, u.fp.code, u.designation, u.sqft, "", "",
                           status_text[u.status], "VACANT", "", "", "", "", usd(u.market_rent), usd(0), usd(0),
                           usd(0), usd(0), ""])
            f = u.future
            if f is not None:
                le = f.leases[0]
                sh.append(["", u.number, u.fp.code, u.designation, u.sqft, f.id, le.id, "Applicant - Lease Signed",
                           f.name, mdY(f.move_in), "", mdY(le.start), mdY(le.end), "*" + usd(u.market_rent),
                           "*" + usd(le.rent), "*" + usd(le.total - le.rent), "*" + usd(le.total), usd(0), ""])
    sh.append(["Totals:", "%d Units" % n_units, "", "", "", "", "", "", "", "", "", "", "", usd(tot_mr), usd(tot_lr),
               usd(tot_other), usd(tot_lr + tot_other), usd(tot_dep), usd(tot_bal)])
    sh.blank()
    sh.append(["Rent Analysis by Floor Plan"])
    sh.append(["Floor Plan", "# Units", "Average\nSqFt", "Average\nMarket + Addl.", "Average\nLeased",
               "Units\nOccupied", "Occupancy %"])
    for fp in p.floorplans:
        s = T.floorplan_stats(fp, as_of)
        sh.append([fp.code, s["units"], "%.0f" % s["avg_sqft"], usd(s["market_total"] // s["units"]),
                   usd(s["in_place_total"] // s["occupied"] if s["occupied"] else 0), s["occupied"],
                   pct_text(s["occupied"], s["units"])])
    return wb


def layout_delinquency(g, p, as_of, fiscal):
    rows = T.delinquency_rows(g, p)
    wb = Workbook()
    sh = wb.add_sheet("Delinquent and Prepaid")
    title_block(sh, p, "DELINQUENT AND PREPAID", "120.080.106",
                ["Fiscal Period %s As of %s" % (fiscal, mdY(as_of)),
                 "Parameters:\nReport Type: Details\nSubproperties: ALL\nStatuses to include: Current resident, "
                 "NTV, Former resident",
                 "Detail - %d Account(s)" % len(rows)], as_of)
    sh.append(["Unit", "Name / Phone Number / Email", "Status", "Move-In/Out", "Code / Description", "Total",
               "Total", "Net", "Current", "30 Days", "60 Days", "90+ Days", "Prorate", "Deposits", "Outstanding",
               "# Late/"])
    sh.append(["", "", "", "", "", "Prepaid", "Delinquent", "Balance", "", "", "", "", "Credits", "Held",
               "Deposit", "# NSF"])
    status_text = {"current": "Current resident", "notice": "NTV", "former": "Former resident"}
    G = [0] * 7
    for x in rows:
        r = x["res"]
        mio = mdY(r.move_in) + ("\n" + mdY(r.move_out) if r.move_out else "")
        late = sum(1 for rec in r.months if rec[6] is not None)
        sh.append([x["unit"], "%s\n%s\n%s" % (x["name"], r.phone, r.email), status_text[x["status"]], mio, "",
                   "", "", "", "", "", "", "", "", usd(r.deposit, False), usd(0, False), "%d/0" % late])
        for code in sorted(x["by_code"]):
            b = x["by_code"][code]
            delinquent = sum(b[:4])
            sh.append(["", "", "", "", "%s / %s" % (code, CHARGE_CODES[code][2]), usd(-b[4], False),
                       usd(delinquent, False), usd(delinquent - b[4], False), usd(b[0], False), usd(b[1], False),
                       usd(b[2], False), usd(b[3], False), usd(0, False), "", "", ""])
        bk = x["buckets"]
        sh.append(["", "", "", "", "Subtotals:", usd(-x["prepaid"], False), usd(x["delinquent"], False),
                   usd(x["current_balance"], False), usd(bk[0], False), usd(bk[1], False), usd(bk[2], False),
                   usd(bk[3], False), usd(0, False), usd(r.deposit, False), usd(0, False), ""])
        for i, v in enumerate([-x["prepaid"], x["delinquent"], x["current_balance"]] + bk):
            G[i] += v
    sh.blank()
    sh.append(["", "", "", "", "Grand Totals:"] + [usd(v, False) for v in G])
    sh.blank()
    sh.append(["* = Resident under eviction   \u2020 = Includes NSF   \u2021 = Includes amounts 120+ days past due"])
    return wb


def layout_activity(g, p, start, end):
    wb = Workbook()
    sh = wb.add_sheet("Activity")
    title_block(sh, p, "ACTIVITY REPORT", "LEA-220-001",
                ["Date Range: %s - %s" % (mdY(start), mdY(end)),
                 "Parameters:\nStatuses: Prospect, Applicant, Approved applicant, Current resident, Former resident"],
                g.as_of, product="OneSite Prospect Management v3.0")
    sh.append(["Activity"])
    sh.append(["Bldg/Unit", "Name", "Type", "Date", "Leasing\nConsultant", "Ad Source", "Notes"])
    n = 0
    counts = {}
    for e in p.events:
        if not (start <= e.date <= end):
            continue
        if e.kind == "lead":
            typ = ACTIVITY_TYPE[e.prospect.channel]
        elif e.kind == "tour" and e.notes == "walk-in":
            continue      # a walk-in lead is one "Visit" row (lead + tour)
        else:
            typ = EVENT_TYPE[e.kind]
            if e.kind == "tour" and e.prospect.channel != "visit":
                typ = "Visit"
        if e.prospect is not None:
            name = "%s, %s" % (e.prospect.last, e.prospect.first)
        else:
            name = e.res.name
        unit = ("%s-%s" % (e.unit.building["number"], e.unit.number)) if e.unit else ""
        note = {"lead": "First contact", "tour": "Toured", "notice": "Notice for %s" % mdY(e.res.move_out)
                if e.res and e.res.move_out else ""}.get(e.kind, "")
        sh.append([unit, name, typ, mdY(e.date), e.agent or "", e.source or "", note])
        counts[typ] = counts.get(typ, 0) + 1
        n += 1
    sh.append(["Total Activities: %d" % n])
    sh.blank()
    sh.append(["Summary by Type"])
    sh.append(["Type", "Count"])
    for k in sorted(counts):
        sh.append([k, counts[k]])
    return wb


def layout_monthly_summary(g, p, acc_start, occ_start, end):
    as_of = g.as_of
    wb = Workbook()
    sh = wb.add_sheet("Monthly Activity Summary")
    title_block(sh, p, "MONTHLY ACTIVITY SUMMARY", "mgt-542-001",
                ["As of %s" % mdY(as_of),
                 "Parameters:\nAccounting activity since: %s\nOccupancy activity since: %s\nThrough: %s\n"
                 "Subtotals by: Floorplan Name" % (mdY(acc_start), mdY(occ_start), mdY(end))], as_of)
    sh.append(["Occupancy Activity"])
    sh.append(["Floor plan", "Market Rent", "Total\nBase Rent", "Total\nSQFT", "Total\nUnits", "Occupied\nno NTV",
               "Vacant Not\nLeased", "Vacant\nLeased", "Occupied NTV\nnot Leased", "Occupied\nNTV Leased",
               "Vacant Admini-\nstrative", "Vacant\nDown"])
    T_ = [0] * 11
    for fp in p.floorplans:
        c = T.unit_counts(fp.units, as_of)
        s = T.floorplan_stats(fp, as_of)
        row = [s["market_total"], s["in_place_total"], sum(u.sqft for u in fp.units), c["total_units"],
               c["occupied_no_notice"], c["vacant_not_leased"], c["vacant_leased"], c["notice_not_leased"],
               c["notice_leased"], c["model"], c["down"]]
        T_ = [a + b for a, b in zip(T_, row)]
        sh.append([fp.name, usd(row[0]), usd(row[1])] + row[2:])
    sh.append(["Totals", usd(T_[0]), usd(T_[1])] + T_[2:])
    sh.blank()

    # accounting activity per floorplan for [acc_start, end]
    sh.append(["Accounting Activity"])
    sh.append(["Floor plan", "Move-\nins", "Move-\nouts", "Notices", "Cancellations/\nRejections", "Renewals",
               "Leases", "Rent\nCharged", "Other\nCharges", "Payments"])
    acc = {fp.code: [0] * 9 for fp in p.floorplans}
    for e in p.events:
        if acc_start <= e.date <= end and e.kind in ("application_denied", "application_canceled") and e.prospect:
            acc[e.prospect.fp.code][3] += 1
    for d, kind, r in T.resident_events(p, acc_start, min(end, as_of)):
        k = {"move_in": 0, "move_out": 1, "notice": 2, "renewal": 4, "new_lease": 5}[kind]
        acc[r.unit.fp.code][k] += 1
    ledger_rows = _ledger_sums(g, p, acc_start, end)
    tot = [0] * 9
    for fp in p.floorplans:
        a = acc[fp.code]
        ls = ledger_rows.get(fp.code, (0, 0, 0))
        a[6], a[7], a[8] = ls
        tot = [x + y for x, y in zip(tot, a)]
        sh.append([fp.name] + a[:6] + [usd(a[6]), usd(a[7]), usd(a[8])])
    sh.append(["Totals"] + tot[:6] + [usd(tot[6]), usd(tot[7]), usd(tot[8])])
    sh.blank()

    sh.append(["Leasing Activity Detail"])
    sh.append(["Unit", "Status", "Name", "Action", "Date"])
    actions = (("lease_signed", "Lease approved"), ("move_in", "Moved In"), ("move_out", "Moved Out"),
               ("notice", "Move Out Notice"), ("renewal", "Renewed Lease"))
    evs = T.resident_events(p, acc_start, min(end, as_of))
    for kind, label in actions:
        kk = "new_lease" if kind == "lease_signed" else kind
        n = 0
        for d, k, r in sorted(evs, key=lambda x: (x[2].unit.number, x[0], x[2].id)):
            if k != kk:
                continue
            st = {"current": "Current", "future": "Applicant", "former": "Former"}[r.status]
            sh.append([r.unit.number, st, r.name, label, mdY(d)])
            n += 1
        sh.append(["Total %s: %d" % (label, n)])
    return wb


def _ledger_sums(g, p, start, end):
    """Rent charged, other charges, payments (cents) per floorplan for postings dated in [start, end]."""
    out = {}
    for r in p.residencies:
        if not r.months:
            continue
        if r.months and g.months[r.months[-1][0]][0] < dt.date(start.year, start.month, 1):
            continue
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


def layout_lease_expiration(g, p, start_month, end_month):
    as_of = g.as_of
    wb = Workbook()
    sh = wb.add_sheet("Lease Expiration")
    title_block(sh, p, "LEASE EXPIRATION DETAIL", "rpt-001-702",
                ["Lease expirations from %s through %s" % (start_month.strftime("%m/%Y"), end_month.strftime("%m/%Y")),
                 "As of %s" % mdY(as_of)], as_of)
    sh.append(["Unit", "Floorplan", "SQFT", "Name", "Term", "Lease End", "Move-In", "Expected", "Decision",
               "Market Rent", "Lease Rent", "Other Charges", "Total Billing", "Balance"])
    sh.append(["", "", "", "Phone/email", "", "", "", "Move-out", "", "", "", "", "", ""])
    groups = {}
    mtm = []
    for u in p.units:
        r = u.current
        if r is None:
            continue
        le = r.current_lease(as_of)
        if le.mtm or le.end < as_of:
            mtm.append((u, r, le))
            continue
        if start_month <= dt.date(le.end.year, le.end.month, 1) <= end_month:
            groups.setdefault((le.end.year, le.end.month), []).append((u, r, le))

    total = 0

    def emit(items):
        for u, r, le in sorted(items, key=lambda x: (x[2].end, x[0].number)):
            decision = "Vacating" if r.move_out else ("Renewed" if le.next is not None else "Unknown")
            sh.append([u.number, u.fp.code, u.sqft, r.name, "MTM" if le.mtm else str(le.term), mdY(le.end),
                       mdY(r.move_in), mdY(r.move_out) if r.move_out else "", decision, usd(u.market_rent),
                       usd(le.rent), usd(le.total - le.rent), usd(le.total), usd(r.charge_total - r.payment_total)])
            sh.append(["", "", "", "%s / %s" % (r.phone, r.email)])

    if mtm:
        sh.append(["MTM"])
        emit(mtm)
        sh.append(["Total MTM/Expired leases: %d" % len(mtm)])
        total += len(mtm)
    for (y, m) in sorted(groups):
        label = dt.date(y, m, 1).strftime("%B %Y")
        sh.append([label])
        emit(groups[(y, m)])
        sh.append(["Total leases expiring in %s: %d" % (label, len(groups[(y, m)]))])
        total += len(groups[(y, m)])
    sh.append(["Total leases: %d" % total])
    return wb


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


def ext_rent_roll(mod, g, p):
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
    mod.write_rent_roll(buf, p.name, as_of, units, company=MANAGEMENT_COMPANY)
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
                codes.append({"code": code, "description": CHARGE_CODES[code][2], "prepaid": _D(b[4]),
                              "delinquent": _D(sum(b[:4])), "current": _D(b[0]), "days_30": _D(b[1]),
                              "days_60": _D(b[2]), "days_90_plus": _D(b[3])})
            late = sum(1 for rec in r.months if rec[6] is not None)
            accounts.append({"unit": x["unit"], "name": x["name"], "phone": r.phone, "email": r.email,
                             "resident_id": str(r.id), "status": DQ_STATUS[x["status"]], "move_in": r.move_in,
                             "move_out": r.move_out, "deposits_held": _D(r.deposit), "outstanding_deposit": _D(0),
                             "late_nsf": "%d/0" % late, "codes": codes})
        mod.write_delinquent_prepaid(buf, p.name, g.as_of, accounts, fiscal_period=fiscal, company=MANAGEMENT_COMPANY)
    return buf.getvalue()


def activity_rows(p, start, end):
    """Activity report rows (one per activity) -- shared by both layouts."""
    out = []
    for e in p.events:
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
    rows = activity_rows(p, start, end)
    rows.sort(key=lambda a: (a["agent"] or "", a["date"]))
    buf = io.BytesIO()
    mod.write_activity(buf, p.name, start, end, rows, company=MANAGEMENT_COMPANY)
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


# ------------------------------------------------------------------------------ entry point

def build_report(g, p, report_id, params):
    """Report file bytes for one (property, report, parameters) request."""
    kind = REPORTS[report_id][0]
    as_of = g.as_of
    mod = _external_layout(None)
    if kind == "box_score":
        end = parse_date(param(params, "End_Date", "EndDate", "enddate", "AsOfDate")) or as_of
        start = parse_date(param(params, "Start_Date", "StartDate", "startdate")) or dt.date(end.year, end.month, 1)
        if end > as_of:
            return layout_invalid_box_score(p, as_of, start, end).to_bytes()
        if mod:
            return ext_box_score(mod, g, p, start, end)
        return layout_box_score(box_score_data(g, p, start, end)).to_bytes()
    if kind == "rent_roll":
        if mod:
            return ext_rent_roll(mod, g, p)
        return layout_rent_roll(g, p, as_of).to_bytes()
    if kind == "delinquency":
        fiscal = str(param(params, "FiscalPeriod", "AR_FiscalPeriodSelect") or as_of.strftime("%m%Y"))
        if mod:
            return ext_delinquency(mod, g, p, report_id == 4260, fiscal)
        return layout_delinquency(g, p, as_of, fiscal).to_bytes()
    if kind == "activity":
        end = min(parse_date(param(params, "enddate", "End_Date", "EndDate")) or as_of, as_of)
        start = parse_date(param(params, "startdate", "Start_Date", "StartDate")) or (end - dt.timedelta(days=29))
        if mod:
            return ext_activity(mod, g, p, start, end)
        return layout_activity(g, p, start, end).to_bytes()
    if kind == "monthly_summary":
        acc = parse_date(param(params, "AccStartDate")) or dt.date(as_of.year, as_of.month, 1)
        occ = parse_date(param(params, "OccStartDate")) or acc
        end = min(parse_date(param(params, "AccEndDate", "EndDate", "End_Date")) or as_of, as_of)
        if mod:
            return ext_monthly_summary(mod, g, p, acc, end)
        return layout_monthly_summary(g, p, acc, occ, end).to_bytes()
    if kind == "lease_expiration":
        sm = parse_date(param(params, "startmonth", "StartMonth")) or dt.date(as_of.year, as_of.month, 1)
        em = parse_date(param(params, "endmonth", "EndMonth"))
        if em is None:
            y, m = sm.year + (sm.month + 10) // 12, (sm.month + 10) % 12 + 1
            em = dt.date(y, m, 1)
        sm, em = dt.date(sm.year, sm.month, 1), dt.date(em.year, em.month, 1)
        if mod:
            return ext_lease_expiration(mod, g, p, sm, em)
        return layout_lease_expiration(g, p, sm, em).to_bytes()
    raise KeyError(report_id)
