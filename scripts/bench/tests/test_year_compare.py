"""year_compare.py: history the nightly directory kept is told apart from an answer that differs."""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "year_compare.py")

# Shapes as `ownerdash report maintenance|expenses --format json` prints them (kalaco, night 7 of a year run).
MAINTENANCE = {
    "metric": "maintenance",
    "parameters": {"properties": ["kalaco"], "as_of": None, "months": 3, "older_than_days": 30},
    "rows": [{"property": "kalaco", "as_of": "2026-11-26", "open": 4, "open_over_30d": 3, "closed": 172,
              "closed_3m": 33, "median_days": 7, "avg_days": 6.4}],
    "total": None,
    "by_category": [{"property": "kalaco", "category": "Make Ready", "open": 4, "open_over_30d": 3, "closed": 172,
                     "closed_3m": 33, "median_days": 7, "avg_days": 6.4}],
    "aged_open": [],
    "make_ready": [{"property": "kalaco", "month": "2026-11", "turns_closed": 3, "avg_days": 6.7}],
    "no_work_order_source": [],
}
EXPENSES = {
    "metric": "expenses",
    "parameters": {"properties": ["kalaco"], "start": "2026-10", "months": 2},
    "rows": [{"property": "kalaco", "gl_category": "Payroll", "2026-10": 25000.10, "2026-11": 25354.63, "total": 50354.73},
             {"property": "kalaco", "gl_category": "All categories", "2026-10": 25000.10, "2026-11": 25354.63,
              "total": 50354.73}],
    "total": None,
    "accounts": [{"property": "kalaco", "month": "2026-10", "gl_account": "6110-0000", "account_name": "Salaries",
                  "gl_category": "Payroll", "amount": 25000.10},
                 {"property": "kalaco", "month": "2026-11", "gl_account": "6110-0000", "account_name": "Salaries",
                  "gl_category": "Payroll", "amount": 25354.63}],
    "no_expense_source": [],
    "operating": [{"property": "kalaco", "line": "Income", "2026-10": 0.00, "2026-11": 861432.00, "total": 861432.00}],
    "sources": [{"property": "kalaco", "month": "2026-10", "expenses_from": "realpage: Income Statement",
                 "income_from": "realpage: Income Statement"},
                {"property": "kalaco", "month": "2026-11", "expenses_from": "realpage: Income Statement",
                 "income_from": "realpage: Income Statement"}],
}


def answers(maintenance, expenses, summary='{"occupancy": 0.95}'):
    return ("== query summary\n%s\nexit 0\n== report maintenance\n%s\nexit 0\n== report expenses\n%s\nexit 0\n"
            % (summary, json.dumps(maintenance, indent=1), json.dumps(expenses, indent=1)))


def fresh_window():
    """What a fresh ingest of the same day sees: closed work orders of its window only, the current period only."""
    maintenance, expenses = copy.deepcopy(MAINTENANCE), copy.deepcopy(EXPENSES)
    for table in ("rows", "by_category"):
        maintenance[table][0]["closed"] = 51
    for table in ("rows", "operating"):
        for row in expenses[table]:
            row["2026-10"] = None
            row["total"] = row["2026-11"]
    expenses["accounts"] = expenses["accounts"][1:]
    expenses["sources"] = expenses["sources"][1:]
    return maintenance, expenses


class YearCompareTests(unittest.TestCase):
    def compare(self, year, fresh):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, text in (("year", year), ("fresh", fresh)):
                paths.append(os.path.join(tmp, name))
                with open(paths[-1], "w") as f:
                    f.write(text)
            result = subprocess.run([sys.executable, SCRIPT] + paths, capture_output=True, text=True)
        return result.returncode, result.stdout

    def test_identical_answers(self):
        code, out = self.compare(answers(MAINTENANCE, EXPENSES), answers(MAINTENANCE, EXPENSES))
        self.assertEqual(code, 0)
        self.assertIn("report expenses: identical\n", out)

    def test_history_the_nightly_kept_is_named_not_a_difference(self):
        code, out = self.compare(answers(MAINTENANCE, EXPENSES), answers(*fresh_window()))
        self.assertEqual(code, 0, out)
        self.assertIn("kalaco: 172 work orders closed, 51 in the fresh directory's window", out)
        self.assertIn("1 statement month(s) of 1 propert(ies) fetched when current (2026-10 .. 2026-10)", out)

    def test_the_portfolio_line_of_a_month_kept_is_history_the_others_must_agree(self):
        year, fresh = copy.deepcopy(EXPENSES), fresh_window()[1]
        year["total"] = {"property": "portfolio", "gl_category": "All categories", "2026-10": 25000.10,
                         "2026-11": 25354.63, "total": 50354.73}
        fresh["total"] = {"property": "portfolio", "gl_category": "All categories", "2026-10": None,
                          "2026-11": 25354.63, "total": 25354.63}
        code, out = self.compare(answers(MAINTENANCE, year), answers(MAINTENANCE, fresh))
        self.assertEqual(code, 0, out)
        fresh["total"]["2026-11"] = 25354.00
        code, out = self.compare(answers(MAINTENANCE, year), answers(MAINTENANCE, fresh))
        self.assertEqual(code, 2)
        self.assertIn("total 2026-11: 25354.63 against 25354.0", out)

    def test_a_category_only_in_months_kept_is_history_even_with_a_zero_in_a_shared_month(self):
        # ten50 after 106 nights: Turnover lines in the kept months only; the month both directories have shows 0.00
        # in the nightly's row, and the fresh directory (that month alone) has no Turnover row at all.
        year, fresh = copy.deepcopy(EXPENSES), fresh_window()[1]
        year["rows"].insert(0, {"property": "kalaco", "gl_category": "Turnover", "2026-10": 1337.20, "2026-11": 0.00,
                                "total": 1337.20})
        code, out = self.compare(answers(MAINTENANCE, year), answers(MAINTENANCE, fresh))
        self.assertEqual(code, 0, out)
        self.assertIn("rows kalaco/Turnover: only in months the nightly directory kept", out)
        year["rows"][0]["2026-11"] = 12.00
        code, out = self.compare(answers(MAINTENANCE, year), answers(MAINTENANCE, fresh))
        self.assertEqual(code, 2)
        self.assertIn("rows kalaco/Turnover: only in the nightly directory", out)

    def test_a_figure_of_the_shared_window_differs(self):
        maintenance, expenses = fresh_window()
        maintenance["rows"][0]["open"] = 5
        expenses["rows"][0]["2026-11"] = 25354.64
        code, out = self.compare(answers(MAINTENANCE, EXPENSES), answers(maintenance, expenses))
        self.assertEqual(code, 2)
        self.assertIn("report maintenance: DIFFERS: rows kalaco open: 4 against 5", out)
        self.assertIn("report expenses: DIFFERS: rows kalaco/Payroll 2026-11: 25354.63 against 25354.64", out)

    def test_fewer_closed_work_orders_than_a_fresh_ingest_is_a_difference(self):
        maintenance, expenses = fresh_window()
        maintenance["rows"][0]["closed"] = 200
        code, out = self.compare(answers(MAINTENANCE, EXPENSES), answers(maintenance, expenses))
        self.assertEqual(code, 2)
        self.assertIn("rows kalaco closed 172 < 200", out)

    def test_the_ledger_whole_as_of_table_is_counted_not_compared_and_the_rest_still_is(self):
        # The nightly names the ledgers windows brought past their last whole pull; a fresh ingest pulled them whole.
        grid = {"metric": "lease-status", "rows": [{"property": "kalaco", "2026-07_rent_paid": 1765.0}]}
        lagging = dict(grid, ledger_whole_as_of=[{"property": "kalaco", "as_of": "2026-11-30", "whole_as_of": "2026-11-26"}])

        def text(document, audit=False):
            body = json.dumps(document, indent=1)
            section = "== audit run, then audit show\nexit 0\n" if audit else "== report lease-status --start 2026-06 --months 6\n"
            return section + body + "\nexit 0\n"

        code, out = self.compare(text(lagging) + text(lagging, audit=True), text(grid) + text(grid, audit=True))
        self.assertEqual(code, 0, out)
        self.assertIn("report lease-status --start 2026-06 --months 6: identical (1 ledger(s) named as brought forward", out)
        self.assertIn("audit run, then audit show: identical (1 ledger(s)", out)
        moved = {"metric": "lease-status", "rows": [{"property": "kalaco", "2026-07_rent_paid": 1755.0}]}
        code, out = self.compare(text(lagging), text(moved))
        self.assertEqual(code, 2)
        self.assertIn("report lease-status --start 2026-06 --months 6: DIFFERS: differs (diff the two files); in kalaco; "
                      "each named in ledger_whole_as_of", out)
        elsewhere = {"metric": "lease-status", "rows": [{"property": "luna", "2026-07_rent_paid": 1765.0}]}
        code, out = self.compare(text(dict(elsewhere, ledger_whole_as_of=lagging["ledger_whole_as_of"])), text(grid))
        self.assertEqual(code, 2)
        self.assertIn("in kalaco, luna; not named in ledger_whole_as_of: luna", out)
        # The audit's rows name their property by column, by exception key or at the head of a warning.
        audit = {"metric": "audit", "exceptions": [{"key": "kalaco:L1:RENT:2026-07", "posted": 1765.0}],
                 "warnings": ["kalaco: 3 charge lines (lease, code, month) not audited"]}
        moved = {"metric": "audit", "exceptions": [{"key": "kalaco:L1:RENT:2026-07", "posted": 1755.0}],
                 "warnings": ["kalaco: 2 charge lines (lease, code, month) not audited"]}
        code, out = self.compare(text(dict(audit, ledger_whole_as_of=lagging["ledger_whole_as_of"]), audit=True),
                                 text(moved, audit=True))
        self.assertEqual(code, 2)
        self.assertIn("audit run, then audit show: DIFFERS: differs (diff the two files); in kalaco; each named", out)

    def test_a_portfolio_line_differs_with_the_properties_it_sums(self):
        # `query delinquency` after a week of windows: a credit dated back months reached a fresh ingest's whole pull,
        # not the nightly's windows; the property's row and the portfolio total both differ.
        def delinquency(prepaid, total, lagging=None):
            document = {"properties": [{"property": "kalaco", "prepaid": prepaid}, {"property": "luna", "prepaid": 5.0}],
                        "total": {"property": "portfolio", "prepaid": total}}
            if lagging:
                document["ledger_whole_as_of"] = [{"property": p, "as_of": "2027-11-26", "whole_as_of": "2027-11-21"}
                                                  for p in lagging]
            return "== query delinquency\n" + json.dumps(document, indent=1) + "\nexit 0\n"

        code, out = self.compare(delinquency(4450.26, 4455.26, ["kalaco"]), delinquency(4460.26, 4465.26))
        self.assertEqual(code, 2, out)
        self.assertIn("query delinquency: DIFFERS: differs (diff the two files); in kalaco, portfolio; "
                      "each named in ledger_whole_as_of", out)
        code, out = self.compare(delinquency(4450.26, 4455.26, ["luna"]), delinquency(4460.26, 4465.26))
        self.assertIn("in kalaco, portfolio; not named in ledger_whole_as_of: kalaco", out)
        # A total that differs while no property does sums nothing the answer named.
        code, out = self.compare(delinquency(4450.26, 4455.26, ["kalaco"]), delinquency(4450.26, 4465.26))
        self.assertEqual(code, 2, out)
        self.assertIn("in portfolio; not named in ledger_whole_as_of: portfolio", out)

    def test_the_audit_run_number_is_history_its_parameters_still_compared(self):
        # A copy of a year's directory has run the year's own audits: tonight's is its third, the fresh one's its first.
        def audit(run, as_of="2028-12-01"):
            document = {"metric": "audit", "parameters": {"run": run, "as_of": as_of, "first_month": "2028-07"},
                        "exceptions": []}
            return "== audit run, then audit show\nexit 0\n" + json.dumps(document, indent=1) + "\nexit 0\n"

        code, out = self.compare(audit(3), audit(1))
        self.assertEqual(code, 0, out)
        self.assertIn("audit run, then audit show: identical (audit run 3, the fresh directory's 1)", out)
        code, out = self.compare(audit(3, as_of="2028-11-30"), audit(1))
        self.assertEqual(code, 2, out)
        self.assertIn("audit run, then audit show: DIFFERS", out)

    def test_any_other_answer_must_be_identical(self):
        code, out = self.compare(answers(MAINTENANCE, EXPENSES), answers(MAINTENANCE, EXPENSES, '{"occupancy": 0.94}'))
        self.assertEqual(code, 2)
        self.assertIn("query summary: DIFFERS", out)


if __name__ == "__main__":
    unittest.main()
