"""Ground truth: facts computed directly from the generated portfolio objects (never from served bytes).

The report and SOAP layers call the same helpers (unit_counts, delinquency_rows, ...) so what is served
agrees with what is written here.  Definitions are documented in README.md.
"""

import datetime as dt
from decimal import Decimal, ROUND_HALF_UP

from . import maintenance
from .portfolio import add_months, money, month_key, month_start

DAY = dt.timedelta(days=1)
AGING_BUCKETS = ("balance_0_30", "balance_31_60", "balance_61_90", "balance_over_90")
FUNNEL_WINDOW_DAYS = 30


def avg_dollars(total_cents, n):
    """Average in dollars rounded half-up to the cent (as the report writers print it)."""
    q = (Decimal(total_cents) / n / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return float(q)


def pct(n, d):
    return round(100.0 * n / d, 2) if d else 0.0


def bucket_of(days):
    if days <= 30:
        return 0
    if days <= 60:
        return 1
    if days <= 90:
        return 2
    return 3


# ------------------------------------------------------------------------------ occupancy

def unit_counts(units, as_of):
    c = {"total_units": len(units), "occupied": 0, "occupied_no_notice": 0, "vacant": 0, "vacant_leased": 0,
         "vacant_not_leased": 0, "on_notice": 0, "notice_leased": 0, "notice_not_leased": 0, "model": 0,
         "down": 0, "vacant_ready": 0, "vacant_not_ready": 0, "aged_vacant_90": 0}
    for u in units:
        s = u.status
        if s == "occupied":
            c["occupied"] += 1
            c["occupied_no_notice"] += 1
        elif s == "ntv":
            c["occupied"] += 1
            c["on_notice"] += 1
            c["notice_not_leased"] += 1
        elif s == "ntv_leased":
            c["occupied"] += 1
            c["on_notice"] += 1
            c["notice_leased"] += 1
        else:
            c["vacant"] += 1
            if s == "model":
                c["model"] += 1
            elif s == "down":
                c["down"] += 1
            else:
                if s == "vacant_leased":
                    c["vacant_leased"] += 1
                else:
                    c["vacant_not_leased"] += 1
                if u.made_ready is not None:
                    c["vacant_ready"] += 1
                else:
                    c["vacant_not_ready"] += 1
                if u.days_vacant(as_of) > 90:
                    c["aged_vacant_90"] += 1
    return c


def exposure(units, as_of, window_days=None):
    n = 0
    for u in units:
        if u.status == "vacant":
            n += 1
        elif u.status == "ntv":
            if window_days is None:
                n += 1
            else:
                mo = u.current.move_out
                if (mo - as_of).days <= window_days:
                    n += 1
    return n


def occupancy(p, as_of):
    c = unit_counts(p.units, as_of)
    n = c["total_units"]
    leased = c["vacant_leased"] + c["occupied_no_notice"] + c["notice_leased"]
    out = {"unit_counts": c,
           "physical_occupancy_pct": pct(c["occupied"], n),
           "leased_units": leased,
           "leased_pct": pct(leased, n)}
    exp = {}
    for label, w in (("now", None), ("30", 30), ("60", 60)):
        e = exposure(p.units, as_of, w)
        exp[label] = {"units": e, "pct": pct(e, n)}
    out["exposure"] = exp
    ne = c["vacant"] - c["vacant_leased"] + c["on_notice"] - c["notice_leased"]
    out["net_exposure_incl_model_down"] = {"units": ne, "pct": pct(ne, n)}
    return out


# ------------------------------------------------------------------------------ pricing

def floorplan_stats(fp, as_of):
    """Per floorplan: unit count, avg sqft, avg market rent, occupied count and avg in-place rent (cents)."""
    units = fp.units
    n = len(units)
    occ = [u for u in units if u.is_occupied]
    in_place = [u.current.current_lease(as_of).rent for u in occ]
    return {"units": n,
            "avg_sqft": round(sum(u.sqft for u in units) / n, 2) if n else 0.0,
            "market_total": sum(u.market_rent for u in units),
            "occupied": len(occ),
            "in_place_total": sum(in_place)}


def pricing(p, as_of):
    rows = []
    for fp in p.floorplans:
        s = floorplan_stats(fp, as_of)
        n = s["units"]
        asking = avg_dollars(s["market_total"], n) if n else 0.0
        inplace = avg_dollars(s["in_place_total"], s["occupied"]) if s["occupied"] else None
        rows.append({"floorplan": fp.code, "floorplan_name": fp.name, "group": fp.group, "bedrooms": fp.beds,
                     "bathrooms": fp.baths, "units": n, "avg_sqft": s["avg_sqft"], "occupied_units": s["occupied"],
                     "in_place_rent": inplace,
                     "in_place_psf": round(inplace / s["avg_sqft"], 4) if inplace is not None else None,
                     "asking_rent": asking,
                     "asking_psf": round(asking / s["avg_sqft"], 4) if n else None})
    return rows


# ------------------------------------------------------------------------------ delinquency

def resident_status(r):
    if r.status == "former":
        return "former"
    if r.status == "future":
        return "future"
    if r.move_out is not None:
        return "notice"
    return "current"


def delinquency_rows(g, p):
    """One row per household with a non-zero balance. Amounts in cents; `by_code` splits the aging per
    charge code (prepaid is attributed to RENT)."""
    as_of = g.as_of
    rows = []
    for r in p.residencies:
        bal = r.charge_total - r.payment_total
        if bal == 0 or r.status == "future":
            continue
        b = [0, 0, 0, 0]
        by_code = {}
        for c in g.open_items(r):
            k = bucket_of((as_of - c[1]).days)
            b[k] += c[7]
            bc = by_code.setdefault(c[2], [0, 0, 0, 0, 0])
            bc[k] += c[7]
        prepaid = r.credit
        if prepaid:
            by_code.setdefault("RENT", [0, 0, 0, 0, 0])[4] += prepaid
        rows.append({"res": r, "resident_id": r.id, "tenant_code": r.tcode, "unit": r.unit.number,
                     "name": r.name, "status": resident_status(r), "current_balance": bal,
                     "buckets": b, "prepaid": prepaid, "delinquent": sum(b), "by_code": by_code})
    rows.sort(key=lambda x: (x["unit"], x["resident_id"]))
    return rows


def aging_as_printed(b):
    """A code's aging as the Delinquent and Prepaid report prints it: its open charges by age with its prepaid credit
    (b[4]) taken off the Current column, so the columns add up to the code's net balance (the real report nets a
    code's credit into the column of its age; the simulator's credit is this month's extra payment)."""
    return [b[0] - b[4], b[1], b[2], b[3]]


def delinquency(g, p):
    rows = delinquency_rows(g, p)
    out = []
    tot = {"current_balance": 0, "delinquent": 0, "prepaid": 0, "net": 0, "residents_delinquent": 0,
           "residents_prepaid": 0}
    for k in AGING_BUCKETS:
        tot[k] = 0
    for x in rows:
        d = {"resident_id": x["resident_id"], "tenant_code": x["tenant_code"], "unit": x["unit"],
             "name": x["name"], "status": x["status"], "current_balance": money(x["current_balance"]),
             "delinquent": money(x["delinquent"]), "prepaid": money(x["prepaid"])}
        for k, v in zip(AGING_BUCKETS, x["buckets"]):
            d[k] = money(v)
            tot[k] += v
        # The same aging per charge code, as the Delinquent and Prepaid report prints it (prepaid on RENT, netted into
        # its Current column): what a ledger built from that report alone can know (derived from the same rows, no
        # random draw). The household's buckets above are what it owes by age; these add up to its net balance.
        d["aging_by_code"] = {code: dict(zip(AGING_BUCKETS + ("prepaid",),
                                             (money(v) for v in aging_as_printed(b) + [b[4]])))
                              for code, b in sorted(x["by_code"].items())}
        tot["current_balance"] += x["current_balance"]
        tot["delinquent"] += x["delinquent"]
        tot["prepaid"] += x["prepaid"]
        if x["delinquent"]:
            tot["residents_delinquent"] += 1
        if x["prepaid"]:
            tot["residents_prepaid"] += 1
        out.append(d)
    tot["net"] = tot["delinquent"] - tot["prepaid"]
    for k in ("current_balance", "delinquent", "prepaid", "net") + AGING_BUCKETS:
        tot[k] = money(tot[k])
    return {"residents": out, "totals": tot}


# ------------------------------------------------------------------------------ activity

FUNNEL_KINDS = {"lead": "leads", "tour": "tours", "application": "applications", "approval": "approvals",
                "lease_signed": "leases", "application_denied": "denied", "application_canceled": "canceled"}


def funnel(p, as_of, days=FUNNEL_WINDOW_DAYS):
    start = as_of - dt.timedelta(days=days - 1)
    out = {"window_start": start.isoformat(), "window_end": as_of.isoformat()}
    for v in FUNNEL_KINDS.values():
        out[v] = 0
    by_channel = {}
    for e in p.events:
        if start <= e.date <= as_of and e.kind in FUNNEL_KINDS:
            out[FUNNEL_KINDS[e.kind]] += 1
            if e.kind == "lead":
                by_channel[e.prospect.channel] = by_channel.get(e.prospect.channel, 0) + 1
    out["leads_by_channel"] = dict(sorted(by_channel.items()))
    return out


def resident_events(p, start, end):
    """(date, kind, residency) for move_in, move_out, notice, renewal (renewal lease signed) and
    new_lease (first lease signed) with start <= date <= end."""
    out = []
    for r in p.residencies:
        for d, k in ((r.move_in, "move_in"), (r.move_out, "move_out"), (r.notice_given, "notice")):
            if d is not None and start <= d <= end:
                out.append((d, k, r))
        for le in r.leases:
            if le.signed is not None and start <= le.signed <= end:
                out.append((le.signed, "renewal" if le.is_renewal else "new_lease", r))
    return out


def activity_by_month(g, p):
    months = [m[3] for m in g.months]
    res = {m: {"move_ins": 0, "move_outs": 0, "notices": 0, "renewals": 0, "new_leases": 0} for m in months}
    key = {"move_in": "move_ins", "move_out": "move_outs", "notice": "notices", "renewal": "renewals",
           "new_lease": "new_leases"}
    for d, k, r in resident_events(p, g.win_start, g.as_of):
        res[month_key(d)][key[k]] += 1
    return res


# ------------------------------------------------------------------------------ per-unit facts

UNIT_STATUS_TEXT = {"occupied": "occupied_no_notice", "ntv": "occupied_ntv", "ntv_leased": "occupied_ntv_leased",
                    "vacant_leased": "vacant_leased", "vacant": "vacant_not_leased", "model": "model",
                    "down": "down"}


def unit_rows(p, as_of):
    out = []
    for u in p.units:
        r = u.current
        le = r.current_lease(as_of) if r else None
        out.append({"unit": u.number, "unit_id": u.id, "building": u.building["number"], "floor": str(u.floor),
                    "floorplan": u.fp.code,
                    "sqft": u.sqft, "status": UNIT_STATUS_TEXT[u.status], "market_rent": money(u.market_rent),
                    "lease_rent": money(le.rent) if le else None,
                    "resident_id": r.id if r else None, "tenant_code": r.tcode if r else None,
                    "lease_id": le.id if le else None,
                    "lease_end": le.end.isoformat() if le else None,
                    "move_out": r.move_out.isoformat() if r and r.move_out else None,
                    "vacant_since": u.vacant_since.isoformat() if u.vacant_since and u.is_vacant else None,
                    "days_vacant": u.days_vacant(as_of),
                    "made_ready": u.made_ready.isoformat() if u.made_ready else None,
                    "future_resident_id": u.future.id if u.future else None,
                    "future_move_in": u.future.move_in.isoformat() if u.future else None})
    return out


def ledger_truth(g, p):
    out = {}
    for r in p.residencies:
        if not r.has_postings:
            continue
        ml = g.monthly_ledger(r)
        out[str(r.id)] = {"tenant_code": r.tcode, "unit": r.unit.number, "status": resident_status(r),
                          "lease_ids": [le.id for le in r.leases],
                          "months": ml,
                          "balance_cents": r.charge_total - r.payment_total}
    return out


def occupied_on(p, day):
    """Units some household was in possession of on `day`: moved in on or before it, not moved out by it."""
    n = 0
    for u in p.units:
        for r in u.residencies + ([u.future] if u.future else []):
            if r.move_in is not None and r.move_in <= day and (r.move_out is None or r.move_out > day):
                n += 1
                break
    return n


def occupancy_history(p, as_of, months=24):
    """Occupied units at each of the `months` month ends before the property date's month (what `ownerdash backfill`
    rebuilds from the resident history the PMS hands out), keyed by date."""
    out = {}
    for k in range(months, 0, -1):
        month_end = add_months(month_start(as_of), -k + 1) - DAY
        out[month_end.isoformat()] = occupied_on(p, month_end)
    return out


def property_truth(g, p, include_ledger=True):
    as_of = g.as_of
    t = {"pms": p.pms, "key": p.key, "name": p.name}
    if p.pms == "realpage":
        t["site_id"] = p.pms_id
    else:
        t["property_code"] = p.pms_id
    t["pms_property_id"] = p.pms_id
    t["total_units"] = len(p.units)
    t.update(occupancy(p, as_of))
    t["floorplans"] = {fp.code: unit_counts(fp.units, as_of) for fp in p.floorplans}
    t["pricing"] = pricing(p, as_of)
    t["delinquency"] = delinquency(g, p)
    t["funnel_30d"] = funnel(p, as_of)
    t["activity_by_month"] = activity_by_month(g, p)
    t["occupied_by_month_end"] = occupancy_history(p, as_of)
    t["audit_exceptions"] = p.audit_exceptions
    t["units"] = unit_rows(p, as_of)
    if include_ledger:
        t["ledger"] = ledger_truth(g, p)
    # Households sharing one person's name, e-mail and phone (one person renting two units).
    t["multi_unit_persons"] = getattr(p, "multi_unit_persons", [])
    t["work_orders"], t["expenses"] = maintenance.truth(g, p)
    return t


def build_truth(g, props, meta, include_ledger=True):
    out = dict(meta)
    out["as_of"] = g.as_of.isoformat()
    out["ledger_window"] = {"start": g.win_start.isoformat(), "end": g.as_of.isoformat(),
                            "months": [m[3] for m in g.months]}
    out["properties"] = {p.key: property_truth(g, p, include_ledger) for p in props}
    return out
