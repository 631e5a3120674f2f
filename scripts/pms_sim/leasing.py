"""The clock's leasing (clock.py runs `churn` each day, per property, after the day's move-ins and move-outs):

* renewal decisions: a household whose lease ends within RENEWAL_WINDOW days and has no next lease decides on a
  drawn day (at the latest RENEWAL_WINDOW / 2 days before the end): NOTICE_SHARE give notice to vacate on the
  lease's end date (the unit goes on notice, its make-ready turn scheduled), the others sign a 12-month renewal at
  2-5 % more rent, starting the day after the end; a month-to-month household gives 30 days' notice now and then;
* leads: new prospects at the start-up's daily rate, each a first contact (lead) of its channel; some tour (a
  walk-in the same day); a prospect who toured applies when a unit is available (rarely when none is), and an
  application is approved and its lease signed when a unit is still available when it is decided (the unit is
  pre-leased: a future household with the prospect's name, moving in after the unit is free), else denied or
  cancelled; a prospect who never applied is lost 46 days after the first contact.

Every event lands in the property's activity (`p.events`) on the day it happens, as do the clock's move-ins and
move-outs (clock.py): the Activity report, the leasing funnel and Yardi's guest cards keep moving through a year
of nights instead of running dry after the start-up's notices and prospects. Everything is drawn from the day's
generator (the seed, the day and the property), so two simulators advanced alike serve the same bytes."""

import datetime as dt

from . import maintenance
from .portfolio import (AD_SOURCES, AGENTS, FIRST_NAMES, LAST_NAMES, PAYMENT_METHODS, Event, Lease, add_months,
                        current_behavior, event_order)

DAY = dt.timedelta(days=1)
RENEWAL_WINDOW = 60          # days before a lease's end in which its household decides
NOTICE_SHARE = 0.45          # of those deciding, the share that gives notice to vacate
MTM_NOTICE_PER_DAY = 1 / 150.0
CHANNELS = ("email", "email", "email", "phone", "phone", "internet", "text", "visit")
LOST_AFTER_DAYS = 46         # a prospect with no application is lost (Yardi closes its guest card) after this


def churn(g, p, day, rng, summary, events):
    """One day of leasing for the property: renewal decisions, the day's planned prospect steps, new leads. The
    events of the day are added to `events` (clock.py sorts them into `p.events`)."""
    g.ids = p.ids     # the generator's id counters are the property's own (each property its own ranges)
    _decisions(g, p, day, rng, summary, events)
    plan = p.__dict__.setdefault("_leasing_plan", [])
    due = [x for x in plan if x[0] <= day]
    if due:
        p._leasing_plan = [x for x in plan if x[0] > day]
        for _, pr, step in due:
            _step(g, p, day, rng, pr, step, summary, events)
    _leads(g, p, day, rng, summary, events)


def add_events(p, events):
    """The day's events into the property's activity, in the start-up's order (date, kind, unit, prospect)."""
    events.sort(key=event_order)
    p.events.extend(events)


def _decisions(g, p, day, rng, summary, events):
    for u in p.units:
        r = u.current
        if r is None or r.status != "current" or r.move_out is not None or u.status != "occupied":
            continue
        lease = r.lease_on(day)
        if lease is None or lease.next is not None:
            continue
        if lease.mtm:
            if rng.random() < MTM_NOTICE_PER_DAY:
                _notice(g, p, u, r, day, day + dt.timedelta(days=30), summary, events)
            continue
        left = (lease.end - day).days
        if left > RENEWAL_WINDOW or (left > RENEWAL_WINDOW // 2 and rng.random() >= 0.06):
            continue
        if rng.random() < NOTICE_SHARE:
            _notice(g, p, u, r, day, lease.end if left >= 14 else day + dt.timedelta(days=30), summary, events)
        else:
            start = lease.end + DAY
            rent = int(round(lease.rent * rng.uniform(1.02, 1.05) / 500.0)) * 500
            renewal = Lease(g.next_id("lease"), r, start, add_months(start, 12) - DAY, rent,
                            g.recurring_for(u, rent, rng, base=lease.recurring), True, day, day, 12)
            renewal.prior, lease.next = lease, renewal
            r.leases.append(renewal)
            events.append(Event(day, "renewal", unit=u, res=r, agent=r.agent))
            summary["renewals"] += 1


def _notice(g, p, u, r, day, move_out, summary, events):
    r.notice_given, r.move_out = day, move_out
    u.status = "ntv_leased" if u.future is not None else "ntv"
    maintenance.of(g, p).upcoming.append((u, r))
    events.append(Event(day, "notice", unit=u, res=r, agent=r.agent))
    summary["notices"] += 1


def _available(p, fp):
    """Units a prospect can lease now: vacant or on notice, not pre-leased (models and down units aside), those of
    the prospect's floor plan first."""
    free = [u for u in p.units if u.future is None and u.status in ("vacant", "ntv")]
    return [u for u in free if u.fp is fp] or free


def _leads(g, p, day, rng, summary, events):
    per_day = max(0.6, len(p.units) * 0.0045)
    n = int(per_day) + (1 if rng.random() < per_day - int(per_day) else 0)
    plan = p._leasing_plan
    for _ in range(n):
        pr = g.new_prospect(p, rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES), rng)
        pr.fp = rng.choice(p.floorplans)
        pr.channel = channel = CHANNELS[rng.randrange(len(CHANNELS))]
        pr.source, pr.agent = rng.choice(AD_SOURCES), rng.choice(AGENTS)
        pr.desired_move_in = day + dt.timedelta(days=rng.randint(10, 75))
        pr.desired_rent = pr.fp.base_rent * 100
        _event(pr, events, Event(day, "lead", pr, agent=pr.agent, source=pr.source, notes=channel))
        summary["leads"] += 1
        if channel == "visit":
            _tour(pr, day, rng, plan, summary, events)
        elif rng.random() < 0.45:
            plan.append((day + dt.timedelta(days=rng.randint(1, 9)), pr, "tour"))
        else:
            plan.append((day + dt.timedelta(days=LOST_AFTER_DAYS), pr, "lost"))


def _tour(pr, day, rng, plan, summary, events):
    _event(pr, events, Event(day, "tour", pr, agent=pr.agent, source=pr.source,
                             notes="walk-in" if pr.channel == "visit" else "scheduled"))
    summary["tours"] += 1
    plan.append((day + dt.timedelta(days=rng.randint(0, 4)), pr, "apply"))


def _step(g, p, day, rng, pr, step, summary, events):
    plan = p._leasing_plan
    if step == "tour":
        _tour(pr, day, rng, plan, summary, events)
    elif step == "apply":
        if rng.random() < (0.6 if _available(p, pr.fp) else 0.15):
            _event(pr, events, Event(day, "application", pr, agent=pr.agent, source=pr.source))
            summary["applications"] += 1
            plan.append((day + dt.timedelta(days=rng.randint(1, 3)), pr, "decide"))
        else:
            lead = pr.events[0].date
            plan.append((max(day + DAY, lead + dt.timedelta(days=LOST_AFTER_DAYS)), pr, "lost"))
    elif step == "decide":
        units = _available(p, pr.fp)
        if units and rng.random() < 0.85:
            _lease(g, p, day, rng, pr, rng.choice(units), summary, events)
        else:
            kind = rng.choice(("application_denied", "application_canceled"))
            _event(pr, events, Event(day, kind, pr, agent=pr.agent, source=pr.source))
            pr.outcome = "Lost"
            summary["denials"] += 1
    elif step == "lost" and pr.outcome == "Active":
        pr.outcome = "Lost"


def _lease(g, p, day, rng, pr, u, summary, events):
    """The prospect's application approved and its lease signed today for unit `u`: a future household with the
    prospect's name moving in once the unit is free (the unit is pre-leased from today)."""
    f = g.new_residency(p, u, rng)
    f.first, f.last = pr.first, pr.last
    f.members[0] = (f.members[0][0], pr.first, pr.last, "Head of household")
    f.email, f.phone, f.ad_source, f.agent = pr.email, pr.phone, pr.source, pr.agent
    f.status = "future"
    free_from = u.current.move_out if u.status == "ntv" else day
    f.move_in = max(day + dt.timedelta(days=rng.randint(3, 21)), free_from + dt.timedelta(days=rng.randint(3, 15)))
    g.build_leases(f, u, f.move_in, None, rng, rng.uniform(0.97, 1.03), False, u.market_rent)
    lease = f.leases[0]
    applied = next((e.date for e in pr.events if e.kind == "application"), day)
    lease.signed, lease.applied = day, applied
    f.behavior = current_behavior(rng.random())
    f.method = rng.choice(PAYMENT_METHODS)
    u.future = f
    u.status = "ntv_leased" if u.status == "ntv" else "vacant_leased"
    p.residencies.append(f)
    pr.res, pr.fp, pr.outcome = f, u.fp, "Leased"
    pr.desired_move_in, pr.desired_rent = f.move_in, lease.rent
    _event(pr, events, Event(day, "approval", pr, unit=u, agent=pr.agent, source=pr.source))
    _event(pr, events, Event(day, "lease_signed", pr, unit=u, res=f, agent=pr.agent, source=pr.source))
    summary["leases_signed"] += 1


def _event(pr, events, e):
    pr.events.append(e)
    events.append(e)
