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

from pms_sim.clock import advance  # noqa: E402
from pms_sim.world import World  # noqa: E402
from pms_sim import rpx  # noqa: E402
from pms_sim import truth as T  # noqa: E402

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
        self.assertEqual(churn_a["move_ins"], len(moving_in))
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


if __name__ == "__main__":
    unittest.main()
