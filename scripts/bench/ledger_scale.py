#!/usr/bin/env python3
"""Fills a unified.db with a portfolio-sized synthetic tenant ledger for timing the ledger reports (ledger.sh).

    python3 scripts/bench/ledger_scale.py UNIFIED_DB [--properties 500] [--units 300] [--first-units 450]
                                          [--months 24] [--as-of 2026-11-20]

UNIFIED_DB must already have the unified schema (any `ownerdash sync` creates it). Every property gets `--units`
units on floors of 20, one household and one lease each (the first property, scale_0001, gets `--first-units`: the
450-unit property lease-status is timed on). Every lease has RENT, WATER, SEWER and TRASH scheduled and posted every
month of the window (a move-in mid-window for one unit in ten, prorated as the audit expects); one charge in two
hundred is posted 5.00 short, so the audit has both matched lines and exceptions. Payments: each household pays each
month's charges in full on the 3rd, except one in 25 who stopped paying 1-4 months before the as-of date (debtors) and
one in 40 who paid half of the last month (partial); each household's balance as the sync sums it. Rows are written
a property at a time, as a sync writes them. Everything is derived from the ids, so every run makes the same
database. Generated in SQL (recursive CTEs), so it takes seconds, not minutes.
"""
import argparse
import sqlite3

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("db")
ap.add_argument("--properties", type=int, default=500)
ap.add_argument("--units", type=int, default=300)
ap.add_argument("--first-units", type=int, default=450)
ap.add_argument("--months", type=int, default=24)
ap.add_argument("--as-of", default="2026-11-20")
a = ap.parse_args()
c = sqlite3.connect(a.db)
c.executescript("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;")
p = {"props": a.properties, "units": a.units, "first_units": a.first_units, "months": a.months, "as_of": a.as_of}
c.execute("DELETE FROM unified_properties WHERE unified_property_id LIKE 'scale_%'")
c.execute("""
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :props)
    INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
    SELECT printf('scale_%04d', i), 'Scale ' || i, 'yardi', :as_of, 'synthetic' FROM n""", p)
# Units 1..N, 20 to a floor; one household each, one in ten moved in on the 16th, months before the as-of date.
c.execute("""
    WITH RECURSIVE u(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM u WHERE j < max(:units, :first_units))
    INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, email, status, move_in_date)
    SELECT unified_property_id, 't' || j, CAST(100 + j AS TEXT), 'Resident ' || j || ' ' || unified_property_id,
           't' || j || '.' || unified_property_id || '@example.com', 'current',
           CASE WHEN j % 10 = 0 THEN date(:as_of, 'start of month', '-' || (j % :months) || ' months', '+15 days')
                ELSE '2020-01-01' END
    FROM unified_properties, u
    WHERE unified_property_id LIKE 'scale_%'
      AND j <= CASE unified_property_id WHEN 'scale_0001' THEN :first_units ELSE :units END""", p)
c.execute("""
    INSERT INTO unified_units (unified_property_id, unit_number, floor, status, resident_id, lease_id)
    SELECT unified_property_id, unit_number, CAST((CAST(unit_number AS INTEGER) - 101) / 20 + 1 AS TEXT), 'occupied',
           resident_id, 'L' || substr(resident_id, 2)
    FROM unified_residents WHERE unified_property_id LIKE 'scale_%'""")
c.execute("""
    INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
        category, category_known, amount, start_date, end_date)
    SELECT r.unified_property_id, 'L' || substr(r.resident_id, 2), r.resident_id, r.unit_number, code.name,
           code.category, 1, code.amount + (CAST(substr(r.resident_id, 2) AS INTEGER) % 7), r.move_in_date, '2099-12-31'
    FROM unified_residents r,
         (SELECT 'rent' AS name, 'RENT' AS category, 1500.0 AS amount UNION ALL SELECT 'water', 'UTILITIES', 41.5
          UNION ALL SELECT 'sewer', 'UTILITIES', 33.25 UNION ALL SELECT 'trash', 'UTILITIES', 18.0) AS code
    WHERE r.unified_property_id LIKE 'scale_%'""")
# Posted charges: the month's schedule, prorated by days in the move-in month (round half up, as the audit does);
# k counts months back from the as-of month (0 = the as-of month).
c.execute("""
    WITH RECURSIVE m(k, first_day) AS (
        SELECT 0, date(:as_of, 'start of month')
        UNION ALL SELECT k + 1, date(first_day, '-1 month') FROM m WHERE k + 1 < :months),
    due AS (
        SELECT rc.*, m.k, m.first_day, max(rc.start_date, m.first_day) AS billed_from,
               CAST(strftime('%d', date(m.first_day, '+1 month', '-1 day')) AS INTEGER) AS days_in_month
        FROM unified_recurring_charges rc, m
        WHERE rc.unified_property_id LIKE 'scale_%' AND date(m.first_day, '+1 month', '-1 day') >= rc.start_date),
    posted AS (
        SELECT due.*, CAST(substr(resident_id, 2) AS INTEGER) AS j,
               round((CAST(round(amount * 100) AS INTEGER)
                      * (CAST(julianday(date(first_day, '+1 month', '-1 day')) - julianday(billed_from) AS INTEGER) + 1)
                      + days_in_month / 2) / days_in_month / 100.0
                     - CASE WHEN (CAST(substr(unified_property_id, 7) AS INTEGER) * 7919
                                  + CAST(substr(resident_id, 2) AS INTEGER) * 104729 + k * 31 + length(charge_code)) % 200 = 0
                            THEN 5 ELSE 0 END, 2) AS billed
        FROM due),
    settled AS (
        SELECT posted.*,
               CASE WHEN j % 25 = 0 AND k <= j % 4 THEN 0
                    WHEN j % 40 = 1 AND k = 0 THEN round(billed / 2, 2)
                    ELSE billed END AS paid
        FROM posted)
    INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
        category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
    SELECT unified_property_id, lease_id || '-' || charge_code || '-' || k, resident_id, lease_id, unit_number,
           charge_code, category, 1, substr(first_day, 1, 7), first_day, first_day, billed, paid, round(billed - paid, 2)
    FROM settled
    -- As a sync writes them: a property's rows together (it replaces a property at a time), not interleaved.
    ORDER BY unified_property_id, j, k DESC, charge_code""", p)
# One payment a household a month: what it paid of that month's charges.
c.execute("""
    INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
        period, amount, reference, payment_type)
    SELECT unified_property_id, lease_id || '-P-' || period, resident_id, lease_id, unit_number,
           date(period || '-03'), period, round(sum(amount_paid), 2), 'CHK' || substr(lease_id, 2) || replace(period, '-', ''), 'Check'
    FROM unified_charges WHERE unified_property_id LIKE 'scale_%'
    GROUP BY unified_property_id, lease_id, period HAVING sum(amount_paid) > 0
    ORDER BY unified_property_id, CAST(substr(lease_id, 2) AS INTEGER), period""")
# What a sync writes for a full ledger (Sync/HouseholdBalances.swift): every household's balance as of the date.
c.execute("""
    INSERT INTO unified_household_balances (unified_property_id, resident_id, charges, payments, balance)
    SELECT unified_property_id, resident_id, sum(charged) / 100.0, sum(paid) / 100.0,
           (sum(charged) - sum(paid)) / 100.0
    FROM (SELECT unified_property_id, resident_id, CAST(round(amount * 100) AS INTEGER) AS charged, 0 AS paid
          FROM unified_charges WHERE unified_property_id LIKE 'scale_%'
            AND coalesce(charge_date, due_date, period || '-01') <= :as_of
          UNION ALL
          SELECT unified_property_id, resident_id, 0, CAST(round(amount * 100) AS INTEGER)
          FROM unified_payments WHERE unified_property_id LIKE 'scale_%' AND payment_date <= :as_of)
    GROUP BY unified_property_id, resident_id""", p)
c.commit()
for t in ("unified_properties", "unified_units", "unified_residents", "unified_recurring_charges", "unified_charges",
          "unified_payments", "unified_household_balances"):
    print(t, c.execute("SELECT count(*) FROM " + t).fetchone()[0])
