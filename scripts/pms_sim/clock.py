"""The simulator's clock: `POST /_sim/advance?days=N` moves the property date forward N days (scripts/bench/year.sh
runs a year of nights this way, seconds apart) and applies that day's churn to the generated world:

* move-ins: a pre-leased (future) household whose move-in date has come takes possession (the unit is occupied);
* move-outs: a household on notice whose move-out date has come leaves (the unit is vacant, vacant since that day);
* payments: a few current households pay the day's amount (an extra payment of the day);
* a late posting: one payment dated three days back appears only now (the ledger changes behind the window);
* every 7th day a reversal (a returned payment: a negative payment of the day, by a household that has paid at
  least as much) and every 30th day a correction
  to an old charge (a rent credit dated four months back);
* the month's rent: on the first of a month every current household is charged its lease's recurring lines (a
  household moving in, the rest of its month prorated on the day); a "good" or "prepaid" household pays the month
  within four days, a "late" one on the 6th to 15th with a late fee on the 5th, a "behind" one pays everything it
  owes on the 8th to 17th, or (three months in ten) nothing that month;
* leasing (leasing.churn): households decide on renewal in the 60 days before their lease ends (notice to vacate
  or a signed renewal); new leads tour, apply and sign leases for the units available (pre-leased, moving in once
  free); every event (and the day's move-ins and move-outs) lands in the property's activity;
* maintenance (maintenance.churn): a unit vacated opens a make-ready turn, completed 2 to 12 days later (the unit
  made ready) or the day before a new household moves in; Yardi service requests open and close; RealPage's
  expense accounts grow with the month, Yardi's invoices are received on their dates (invoices.churn).

Everything is drawn from the seed and the day, so two simulators advanced the same way serve the same bytes. The
ledger's rows generated at start-up stay as they were; what the clock posts is added to them. The truth file
written at start-up is not rewritten: a year run compares OwnerDash with itself (incremental nights against a
fresh full ingest of the last day)."""

import datetime as dt
import hashlib
import random

from . import invoices, leasing, maintenance
from .portfolio import LATE_FEE_CENTS, Event, days_in_month, month_lines

DAY = dt.timedelta(days=1)


def _rng(seed, day, key):
    digest = hashlib.sha256(("%s|%s|%s" % (seed, day.isoformat(), key)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def advance(world, days):
    """Moves the world `days` days forward, one day at a time; returns a summary of the churn applied."""
    summary = {"move_ins": 0, "move_outs": 0, "payments": 0, "late_postings": 0, "reversals": 0, "corrections": 0,
               "rent_charges": 0, "rent_payments": 0, "late_fees": 0, "turns_opened": 0, "turns_closed": 0,
               "requests_opened": 0, "requests_closed": 0, "invoices": 0, "notices": 0, "renewals": 0, "leads": 0,
               "tours": 0, "applications": 0, "denials": 0, "leases_signed": 0}
    # Properties, their work orders and invoices are generated on first use, relative to the property date: every
    # one is generated at the date it started from, before the date moves.
    for key in world.keys:
        p = world.get(key)
        maintenance.start_clock(world.gen, p)
        invoices.start_clock(world.gen, p)
    for _ in range(max(0, int(days))):
        day = world.as_of + DAY
        world.as_of = day
        world.gen.as_of = day
        for key in world.keys:
            _churn(world, key, world.get(key), day, summary)
    world.caches.clear()
    return summary


def _touch(r):
    """A household whose postings changed: its ledger is rebuilt on the next read, and its credit (what the Delinquent
    and Prepaid report prints as prepaid) follows its new balance, as OneSite's does. Without the credit, a payment
    that put a household in credit left the report's net balance above the ledger's for the rest of the year (the
    year run's ledger_open_balance check failed every night from the second)."""
    r._ledger = None
    r.credit = r.payment_total - r.charge_total if r.payment_total > r.charge_total else 0


def _churn(world, key, p, day, summary):
    rng = _rng(world.seed, day, key)
    current, moved_in, moved_out = [], [], []
    for u in p.units:
        f = u.future
        if f is not None and f.move_in is not None and f.move_in <= day:
            # the pre-leased household moves in
            f.status = "current"
            u.current, u.future = f, None
            if f not in u.residencies:
                u.residencies.append(f)
            u.status = "occupied"
            u.vacant_since = None
            moved_in.append(u)
            summary["move_ins"] += 1
            if day.day != 1:
                _charge_month(p, f, day, rng, summary)
        r = u.current
        if r is not None and r.move_out is not None and r.move_out <= day and r.status == "current":
            if day.day == 1 and r.move_out == day:
                # The move-out day is a day of possession (the generated months count it): one day's rent.
                _charge_month(p, r, day, rng, summary)
            r.status = "former"
            u.current = None
            u.vacant_since = r.move_out
            u.status = "vacant_leased" if u.future is not None else "vacant"
            u.made_ready = None
            moved_out.append((u, r))
            summary["move_outs"] += 1
        if u.current is not None and u.current.status == "current":
            current.append(u.current)
    _scheduled(p, day, summary)
    if day.day == 1:
        for r in current:
            _charge_month(p, r, day, rng, summary)
    maintenance.churn(world.gen, p, day, rng, moved_out, moved_in, summary)
    summary["invoices"] += invoices.churn(p, day)
    # Leasing draws from its own generator: the payments below draw as they did before it came in.
    events = [Event(day, "move_in", unit=u, res=u.current, agent=u.current.agent) for u in moved_in]
    events += [Event(day, "move_out", unit=u, res=r, agent=r.agent) for u, r in moved_out]
    leasing.churn(world.gen, p, day, _rng(world.seed, day, key + ":leasing"), summary, events)
    leasing.add_events(p, events)
    if not current:
        return
    for r in rng.sample(current, min(3, len(current))):
        amount = rng.choice((2500, 5000, 10000))
        r.extra_payments.append((day, amount))
        r.payment_total += amount
        _touch(r)
        summary["payments"] += 1
    late = rng.choice(current)
    late.extra_payments.append((day - 3 * DAY, 1500))
    late.payment_total += 1500
    _touch(late)
    summary["late_postings"] += 1
    ordinal = day.toordinal()
    if ordinal % 7 == 0:
        r = _returned_payment_household(rng, current)
        if r is not None:
            r.extra_payments.append((day, -2500))
            r.payment_total -= 2500
            _touch(r)
            summary["reversals"] += 1
    if ordinal % 30 == 0:
        r = rng.choice(current)
        old = day - dt.timedelta(days=120)
        r.extra_charges.append((old, "RENT", -1000))   # a rent credit correcting that month
        r.charge_total -= 1000
        _touch(r)
        summary["corrections"] += 1


def _returned_payment_household(rng, current):
    """The household whose 25.00 payment comes back: one that has paid at least that much. A household that had paid
    nothing got a payment of -25.00, which FIFO applies to no charge: its RPX Balance stood 25.00 above its open charges,
    and the nightly ledger check said so for weeks (parkside, nights 31-51 of a year run). None: nobody has paid yet."""
    paid = [r for r in current if r.payment_total >= 2500]
    return rng.choice(paid) if paid else None


def _charge_month(p, r, day, rng, summary):
    """Posts the household's recurring lines for the month from `day` (prorated from a move-in day, and to the
    move-out day of a household leaving that month: its notice is on file weeks ahead, and the generated months end
    its possession there too) and schedules what it pays, by its payment behaviour."""
    le = r.lease_on(day)
    if le is None:
        return
    dim = days_in_month(day.year, day.month)
    last = dim
    if r.move_out is not None and (r.move_out.year, r.move_out.month) == (day.year, day.month):
        last = r.move_out.day
    if last < day.day:
        return
    total = 0
    for code, amount in month_lines(le, last - day.day + 1, dim, None):
        r.extra_charges.append((day, code, amount))
        total += amount
    r.charge_total += total
    _touch(r)
    summary["rent_charges"] += 1
    start = dt.date(day.year, day.month, 1)
    plan = p.__dict__.setdefault("_clock_plan", [])
    if r.behavior == "late":
        if rng.random() < 0.5:
            plan.append((start + dt.timedelta(days=4), r, "fee"))
            plan.append((start + dt.timedelta(days=rng.randint(5, 14)), r, "balance"))
            return
    elif r.behavior == "behind":
        if rng.random() >= 0.3:
            plan.append((start + dt.timedelta(days=rng.randint(7, 16)), r, "balance"))
        return
    plan.append((max(day, start + dt.timedelta(days=rng.randint(0, 3))), r, "balance"))


def _scheduled(p, day, summary):
    """The payments and late fees scheduled for the day: a payment is what the household owes then (nothing when
    it is in credit), a late fee only when the month is still unpaid."""
    plan = p.__dict__.get("_clock_plan")
    if not plan:
        return
    due = [x for x in plan if x[0] <= day]
    if not due:
        return
    p._clock_plan = [x for x in plan if x[0] > day]
    for _, r, kind in due:
        owed = r.charge_total - r.payment_total
        if owed <= 0:
            continue
        if kind == "fee":
            r.extra_charges.append((day, "LATEFEE", LATE_FEE_CENTS))
            r.charge_total += LATE_FEE_CENTS
            summary["late_fees"] += 1
        else:
            r.extra_payments.append((day, owed))
            r.payment_total += owed
            summary["rent_payments"] += 1
        _touch(r)
