"""The simulator's clock (clock.py): advancing moves the property date with that day's churn, the same way for the
same seed, and households take and leave possession on their dates.

    python3 -m unittest discover -s scripts/pms_sim/tests
"""

import collections
import datetime as dt
import json
import os
import re
import subprocess
import sys
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, SCRIPTS)

from pms_sim.clock import _returned_payment_household, _rng, advance  # noqa: E402
from pms_sim.world import World  # noqa: E402
from pms_sim import invoices as INV  # noqa: E402
from pms_sim import maintenance as M  # noqa: E402
from pms_sim import reports  # noqa: E402
from pms_sim import rpx  # noqa: E402
from pms_sim import truth as T  # noqa: E402
from pms_sim import yardi  # noqa: E402

START = dt.date(2026, 11, 20)
KEYS = ["kalaco", "yp_riverwalk"]


def world():
    w = World(7, START)
    w.keys = list(KEYS)
    return w


def churn_in_another_process(days):
    """The churn a fresh simulator process applies over `days` (generation keeps process-wide id counters, so a
    second world in this process would not be the served one)."""
    code = ("import datetime as dt, json, sys; sys.path.insert(0, %r); from pms_sim.world import World; "
            "from pms_sim.clock import advance; w = World(7, dt.date(2026, 11, 20)); w.keys = %r; "
            "print(json.dumps(advance(w, %d)))" % (SCRIPTS, KEYS, days))
    return json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


class ClockTests(unittest.TestCase):
    def test_advancing_is_reproducible_and_moves_households_on_their_dates(self):
        a = world()
        moving_in = [(k, u.number) for k in KEYS for u in a.get(k).units
                     if u.future is not None and u.future.move_in <= START + dt.timedelta(days=20)]
        churn_a = advance(a, 20)
        self.assertEqual(a.as_of, START + dt.timedelta(days=20))
        self.assertEqual(a.gen.as_of, a.as_of)
        self.assertEqual(churn_a, churn_in_another_process(20))
        # the pre-leased households, and the ones that signed on the clock and whose move-in day came
        signed_since = [r for k in KEYS for r in a.get(k).residencies
                        if r.leases and r.leases[0].signed > START and r.move_in <= a.as_of]
        self.assertEqual(churn_a["move_ins"], len(moving_in) + len(signed_since))
        self.assertGreater(churn_a["move_outs"], 0)
        self.assertEqual(churn_a["payments"], 3 * 20 * len(KEYS))
        self.assertEqual(churn_a["late_postings"], 20 * len(KEYS))
        for key, number in moving_in:
            unit = next(u for u in a.get(key).units if u.number == number)
            self.assertEqual(unit.current.status, "current")
            self.assertIn(unit.current, unit.residencies)
        # Occupancy on the new date, as the truth counts it from possession dates, equals the units' statuses.
        for key in KEYS:
            p = a.get(key)
            occupied = sum(1 for u in p.units if u.is_occupied)
            self.assertEqual(T.occupied_on(p, a.as_of), occupied, key)

    def test_the_delinquent_report_follows_the_ledger_after_the_churn(self):
        # Each household's aged balance less its prepaid, as the Delinquent and Prepaid report prints them, is what
        # its ledger leaves open; a payment that puts a household in credit must show as prepaid (it did not, and
        # the report's net stayed above the ledger's all year).
        w = world()
        advance(w, 40)
        for key in KEYS:
            p = w.get(key)
            for x in T.delinquency_rows(w.gen, p):
                charges, payments = w.gen.materialize_ledger(x["res"])
                ledger_balance = sum(c[3] for c in charges) - sum(pay[2] for pay in payments)
                self.assertEqual(x["delinquent"] - x["prepaid"], ledger_balance, (key, x["resident_id"]))


    def test_a_returned_payment_is_one_a_household_made_and_the_balance_is_its_open_charges(self):
        # The 7th day's returned payment went to a random current household, paid or not: one that had paid nothing
        # got -25.00, which FIFO applies to no charge, and RPX stated a Balance 25.00 above its open charges (the
        # year run's ledger check warned of parkside's household for 21 nights).
        class Household:
            def __init__(self, paid):
                self.payment_total = paid
        nobody, someone = Household(0), Household(2500)
        rng = _rng(7, START, "kalaco")
        self.assertEqual({id(_returned_payment_household(rng, [nobody, someone, Household(1000)])) for _ in range(20)},
                         {id(someone)})
        self.assertIsNone(_returned_payment_household(rng, [nobody]))
        w = world()
        churn = advance(w, 35)
        self.assertEqual(churn["reversals"], 5 * len(KEYS))
        for key in KEYS:
            for r in w.get(key).residencies:
                if r.has_postings:
                    charges, _ = w.gen.materialize_ledger(r)
                    self.assertGreaterEqual(r.payment_total, 0, (key, r.id))
                    self.assertEqual(max(0, r.charge_total - r.payment_total), sum(c[7] for c in charges), (key, r.id))

    def test_every_charge_a_payment_or_credit_paid_has_its_application_date(self):
        # Yardi's answer by application date lists the charges a payment was applied to in the window; its replay
        # of the ledger must pay what materialize_ledger pays. A credit (the 30th day's correction) was replayed as
        # a charge of its own and paid nothing: the charges its money paid had no application date, were never
        # listed, and the year run's merged ledger kept them open until each weekly full pull.
        w = world()
        advance(w, 365)
        credited = 0
        for key in KEYS:
            for r in w.get(key).residencies:
                if not r.has_postings:
                    continue
                charges, payments = w.gen.materialize_ledger(r)
                credited += any(c[3] < 0 for c in charges)
                dates = yardi.applied_dates(charges, payments)
                unlisted = [c for c in charges if c[3] > 0 and c[6] > 0 and c[0] not in dates]
                self.assertEqual(unlisted, [], (key, r.id))
        self.assertGreater(credited, 0, "households with a correction credit")

    def test_the_delinquent_report_is_the_same_before_and_after_the_ledger_is_read(self):
        # Two downloads of the same day's report must agree whether or not a ledger request came between them (the
        # open items were computed two ways, and a credit to an old charge aged differently in each).
        w = world()
        advance(w, 60)
        for key in KEYS:
            p = w.get(key)
            before = [(x["resident_id"], x["buckets"], x["prepaid"]) for x in T.delinquency_rows(w.gen, p)]
            for r in p.residencies:
                w.gen.materialize_ledger(r)
            after = [(x["resident_id"], x["buckets"], x["prepaid"]) for x in T.delinquency_rows(w.gen, p)]
            self.assertEqual(before, after, key)

    def test_a_year_of_postings_keeps_transaction_ids_unique_and_every_household_in_the_ledger(self):
        # RPX's getresidentledger is merged by TransactionID. The clock's postings took ids base + 995 + k, which ran
        # into the next household's from a household's sixth extra payment (the year run had dozens of duplicates a
        # property); and a household that moved in after the start (no generated months, only the clock's payments)
        # was missing from the ledger while the Delinquent report listed its credit: the year run's
        # ledger_open_balance check failed by it.
        w = world()
        advance(w, 365)
        for key in KEYS:
            p = w.get(key)
            seen = collections.Counter()
            for r in p.residencies:
                if r.has_postings:
                    charges, payments = w.gen.materialize_ledger(r)
                    seen.update(c[0] for c in charges)
                    seen.update(pay[0] for pay in payments)
            self.assertEqual([tid for tid, n in seen.items() if n > 1], [], key)
            newcomers = [r for r in p.residencies if not r.months and r.extra_payments]
            self.assertTrue(newcomers, key)
            answer = rpx._ledger(w.gen, p, "", w.gen.win_start, w.as_of, False)
            for r in newcomers:
                self.assertIn("<ReshID>%d</ReshID>" % r.id, answer, (key, r.id))
            # RealPage's stated balances add up to the Delinquent and Prepaid report's net balance.
            stated = sum(round(float(b.replace(",", "")) * 100) for b in re.findall(r"<Balance>([^<]*)</Balance>", answer))
            self.assertEqual(stated, sum(x["current_balance"] for x in T.delinquency_rows(w.gen, p)), key)

    def test_the_first_of_a_month_charges_rent_and_households_pay_by_their_behaviour(self):
        # Without the month's rent the ledger stopped at the start month: a year of nights had no income after it
        # and no household fell behind again (the Income Statement printed 0.00 income every later month).
        w = world()
        advance(w, 15)      # to 2026-12-05
        december = dt.date(2026, 12, 1)

        def december_rent(r):
            # A household leaving in December is charged to its move-out day (its notice is on file weeks ahead, and
            # the generated months end possession there too: the lease-charge audit's proration).
            rent = r.lease_on(december).rent
            if r.move_out is not None and (r.move_out.year, r.move_out.month) == (2026, 12):
                return (rent * r.move_out.day + 31 // 2) // 31
            return rent
        leaving = 0
        for key in KEYS:
            p = w.get(key)
            charged = [r for r in p.residencies
                       if any(d == december and code == "RENT" for d, code, _ in r.extra_charges)]
            current = [r for r in p.residencies if r.status != "future" and r.move_in is not None
                       and r.move_in <= december and (r.move_out is None or r.move_out >= december)]
            self.assertEqual(sorted(r.id for r in charged), sorted(r.id for r in current), key)
            for r in charged:
                rent = sum(a for d, code, a in r.extra_charges if d == december and code == "RENT")
                self.assertEqual(rent, december_rent(r), (key, r.id))
                leaving += december_rent(r) != r.lease_on(december).rent
            good = [r for r in charged if r.behavior == "good"]
            self.assertTrue(good, key)
            for r in good:   # paid the month within four days: nothing owed but what the clock's extras left
                self.assertTrue(any(december <= d <= december + dt.timedelta(days=3) for d, _ in r.extra_payments)
                                or r.charge_total <= r.payment_total, (key, r.id))
            rent_income = sum(v[0] for v in reports._ledger_sums(w.gen, p, december, w.as_of).values())
            # the Income Statement's rent: the month's rent of every household charged, and the prorated rent of
            # those who moved in since
            posted = sum(a for r in p.residencies for d, code, a in r.extra_charges
                         if december <= d <= w.as_of and code == "RENT")
            self.assertGreaterEqual(posted, sum(december_rent(r) for r in charged), key)
            self.assertEqual(rent_income, posted, key)
        self.assertGreater(leaving, 0, "some household leaves in December, or the move-out proration is untested")

    def test_a_unit_vacated_on_the_clock_gets_a_make_ready_turn_that_is_completed(self):
        # The turns open at start-up stayed "In Progress" all year and no move-out opened one: a year's Closed
        # Make Ready windows had nothing after the start date.
        w = world()
        churn = advance(w, 40)
        self.assertGreater(churn["turns_opened"], 0)
        self.assertGreater(churn["turns_closed"], churn["turns_opened"] // 2)
        for key in KEYS:
            p = w.get(key)
            m = M.of(w.gen, p)
            opened = [wo for wo in m.turns if wo.opened > START]
            self.assertTrue(opened, key)
            for wo in opened:
                if wo.is_open:
                    self.assertGreaterEqual(wo.planned, w.as_of - dt.timedelta(days=M.TURN_DAYS[1]), (key, wo.id))
                    continue
                self.assertLessEqual(wo.days_to_complete, M.TURN_DAYS[1], (key, wo.id))
                self.assertEqual(wo.status, "Completed")
                u = wo.unit
                if u.is_vacant and u.vacant_since == wo.vacated:
                    self.assertEqual(u.made_ready, wo.completed, (key, u.number))
            self.assertFalse([wo for wo in m.turns if wo.is_open and wo.opened <= START], key)
            truth, _ = M.truth(w.gen, p)
            self.assertGreater(truth["closed_in_window"], 0, key)
            if p.pms == "yardi":
                requests = [wo for wo in m.requests if wo.opened > START]
                self.assertTrue(requests, key)
                self.assertTrue([wo for wo in requests if not wo.is_open], key)

    def test_the_month_s_expenses_grow_to_date_and_a_new_month_has_its_own(self):
        w = world()
        advance(w, 11)      # to 2026-12-01
        p = w.get("kalaco")
        m = M.of(w.gen, p)
        first = dict(m.expenses["2026-12"])
        self.assertTrue(first)
        advance(w, 30)      # to 2026-12-31
        whole = m.expenses["2026-12"]
        self.assertEqual(set(whole), set(first))
        for account, cents in whole.items():
            self.assertAlmostEqual(cents / 31.0, first[account], delta=1, msg=account)
        advance(w, 1)       # to 2027-01-01: December stays whole, January starts
        self.assertEqual(m.expenses["2026-12"], whole)
        self.assertTrue(m.expenses["2027-01"])
        self.assertLessEqual(set(m.expenses["2027-01"]), {a for a, *_ in M.EXPENSE_ACCOUNTS})
        # Yardi: the invoices dated since the start were received, each once, none from the future
        y = w.get("yp_riverwalk")
        register = INV.of(w.gen, y)
        later = [inv for inv in register if inv.invoice_date > START]
        self.assertTrue([inv for inv in later if inv.post_month == dt.date(2026, 12, 1)])
        self.assertTrue(all(inv.invoice_date <= w.as_of for inv in register))
        self.assertEqual(len({inv.id for inv in register}), len(register))
        self.assertEqual(len({line[0] for inv in register for line in inv.lines}),
                         sum(len(inv.lines) for inv in register))

    def test_households_decide_on_renewal_before_their_lease_ends(self):
        # Without the decisions the clock moved out only the start-up's notices: by the fourth month no unit turned
        # and every lease ended without a renewal (the year's lease-expiration and renewal reports froze).
        w = world()
        before = {(k, u.number): u.current for k in KEYS for u in w.get(k).units if u.status == "occupied"}
        churn = advance(w, 90)
        self.assertGreater(churn["notices"], 0)
        self.assertGreater(churn["renewals"], 0)
        for key in KEYS:
            p = w.get(key)
            for u in p.units:
                r = u.current
                if r is None:
                    continue
                self.assertEqual(u.status in ("ntv", "ntv_leased"), r.move_out is not None, (key, u.number))
                self.assertEqual(u.status in ("ntv_leased", "vacant_leased"), u.future is not None, (key, u.number))
                lease = r.lease_on(w.as_of)
                if r.move_out is None and not lease.mtm:
                    # every lease in place has more than the decision window left, or its household has decided
                    self.assertTrue(lease.next is not None or (lease.end - w.as_of).days > 30, (key, u.number))
            for (k, number), r in before.items():
                if k != key or r.notice_given is None:
                    continue
                # a notice given on the clock moves out on its lease's end (or 30 days on, when it came late)
                self.assertGreater(r.notice_given, START)
                self.assertGreater(r.move_out, r.notice_given)
            renewals = [le for r in p.residencies for le in r.leases if le.is_renewal and le.signed > START]
            self.assertTrue(renewals, key)
            for le in renewals:
                self.assertEqual(le.start, le.prior.end + dt.timedelta(days=1))
                self.assertLessEqual((le.prior.end - le.signed).days, 60)
                self.assertTrue(1.01 <= le.rent / le.prior.rent <= 1.06, (key, le.rent, le.prior.rent))

    def test_leads_tour_apply_and_sign_leases_for_the_units_available(self):
        w = world()
        churn = advance(w, 60)
        for kind in ("leads", "tours", "applications", "leases_signed"):
            self.assertGreater(churn[kind], 0, kind)
        for key in KEYS:
            p = w.get(key)
            signed = [pr for pr in p.prospects if pr.res is not None and pr.events[0].date > START]
            self.assertTrue(signed, key)
            for pr in signed:
                kinds = [e.kind for e in pr.events]
                self.assertEqual(kinds[0], "lead")
                self.assertEqual(kinds[-2:], ["approval", "lease_signed"])
                self.assertIn("application", kinds)
                dates = [e.date for e in pr.events]
                self.assertEqual(dates, sorted(dates))
                f = pr.res
                self.assertEqual((f.first, f.last), (pr.first, pr.last))
                self.assertEqual(f.leases[0].signed, dates[-1])
                self.assertGreater(f.move_in, dates[-1])
                u = f.unit
                self.assertTrue(u.future is f or (f.status == "current" and u.current is f), (key, u.number))
                earlier = [r for r in u.residencies if r is not f and r.move_out is not None]
                if earlier:
                    self.assertGreater(f.move_in, max(r.move_out for r in earlier), (key, u.number))
            # the clock's events are in the activity, in order, and the Activity report prints the last 30 days'
            events = [e for e in p.events if e.date > START]
            self.assertEqual([e.date for e in events], sorted(e.date for e in events))
            self.assertTrue({"lead", "tour", "lease_signed", "move_in", "move_out", "notice"} <= {e.kind for e in events},
                            key)
            rows = reports.activity_rows(p, w.as_of - dt.timedelta(days=29), w.as_of)
            self.assertTrue(rows, key)

    def test_a_year_keeps_occupancy_in_a_believable_band(self):
        # Leasing follows the units available: a year neither empties nor fills a property.
        w = world()
        for _ in range(12):
            advance(w, 30)
            for key in KEYS:
                p = w.get(key)
                rate = sum(1 for u in p.units if u.is_occupied) / float(len(p.units))
                self.assertTrue(0.8 <= rate <= 0.99, (key, w.as_of, rate))


if __name__ == "__main__":
    unittest.main()
