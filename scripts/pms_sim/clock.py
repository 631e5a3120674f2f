"""The simulator's clock: `POST /_sim/advance?days=N` moves the property date forward N days (scripts/bench/year.sh
runs a year of nights this way, seconds apart) and applies that day's churn to the generated world:

* move-ins: a pre-leased (future) household whose move-in date has come takes possession (the unit is occupied);
* move-outs: a household on notice whose move-out date has come leaves (the unit is vacant, vacant since that day);
* payments: a few current households pay the day's amount (an extra payment of the day);
* a late posting: one payment dated three days back appears only now (the ledger changes behind the window);
* every 7th day a reversal (a returned payment: a negative payment of the day) and every 30th day a correction
  to an old charge (a rent credit dated four months back).

Everything is drawn from the seed and the day, so two simulators advanced the same way serve the same bytes. The
ledger's monthly rent rows are those generated at start-up (months after the start month get no new rent rows);
statuses, possessions and the extra ledger rows change. The truth file written at start-up is not rewritten: a
year run compares OwnerDash with itself (incremental nights against a fresh full ingest of the last day)."""

import datetime as dt
import hashlib
import random

DAY = dt.timedelta(days=1)


def _rng(seed, day, key):
    digest = hashlib.sha256(("%s|%s|%s" % (seed, day.isoformat(), key)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def advance(world, days):
    """Moves the world `days` days forward, one day at a time; returns a summary of the churn applied."""
    summary = {"move_ins": 0, "move_outs": 0, "payments": 0, "late_postings": 0, "reversals": 0, "corrections": 0}
    # Properties are generated on first use, relative to the property date: every one is generated at the date it
    # started from, before the date moves.
    for key in world.keys:
        world.get(key)
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
    current = []
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
            summary["move_ins"] += 1
        r = u.current
        if r is not None and r.move_out is not None and r.move_out <= day and r.status == "current":
            r.status = "former"
            u.current = None
            u.vacant_since = r.move_out
            u.status = "vacant_leased" if u.future is not None else "vacant"
            u.made_ready = None
            summary["move_outs"] += 1
        if u.current is not None and u.current.status == "current":
            current.append(u.current)
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
        r = rng.choice(current)
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
