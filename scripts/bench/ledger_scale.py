#!/usr/bin/env python3
"""Fills a unified.db with a portfolio-sized synthetic tenant ledger for timing `ownerdash audit run`.

    python3 scripts/bench/audit_scale.py UNIFIED_DB [--properties 500] [--units 300] [--months 24] [--as-of 2026-11-20]

UNIFIED_DB must already have the unified schema (any `ownerdash sync` creates it). Every property gets `--units`
leases, each with RENT, WATER, SEWER and TRASH scheduled and posted every month of the window (a move-in mid-window
for one unit in ten, prorated as the audit expects), and one charge in two hundred posted 5.00 short, so the run has
both matched lines and exceptions. Generated in SQL (recursive CTEs), so it takes seconds, not minutes.
"""
import argparse
import sqlite3

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("db")
ap.add_argument("--properties", type=int, default=500)
ap.add_argument("--units", type=int, default=300)
ap.add_argument("--months", type=int, default=24)
ap.add_argument("--as-of", default="2026-11-20")
a = ap.parse_args()
c = sqlite3.connect(a.db)
c.executescript("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;")
p = {"props": a.properties, "units": a.units, "months": a.months, "as_of": a.as_of}
c.execute("DELETE FROM unified_properties WHERE unified_property_id LIKE 'scale_%'")
c.execute("""
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :props)
    INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
    SELECT printf('scale_%04d', i), 'Scale ' || i, 'yardi', :as_of, 'synthetic' FROM n""", p)
# Units 1..N; one in ten moved in on the 16th, months before the as-of date.
c.execute("""
    WITH RECURSIVE u(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM u WHERE j < :units)
    INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date)
    SELECT unified_property_id, 't' || j, CAST(100 + j AS TEXT), 'R ' || j, 'current',
           CASE WHEN j % 10 = 0 THEN date(:as_of, 'start of month', '-' || (j % :months) || ' months', '+15 days')
                ELSE '2020-01-01' END
    FROM unified_properties, u WHERE unified_property_id LIKE 'scale_%'""", p)
c.execute("""
    INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
        category, category_known, amount, start_date, end_date)
    SELECT r.unified_property_id, 'L' || substr(r.resident_id, 2), r.resident_id, r.unit_number, code.name,
           code.category, 1, code.amount + (CAST(substr(r.resident_id, 2) AS INTEGER) % 7), r.move_in_date, '2099-12-31'
    FROM unified_residents r,
         (SELECT 'rent' AS name, 'RENT' AS category, 1500.0 AS amount UNION ALL SELECT 'water', 'UTILITIES', 41.5
          UNION ALL SELECT 'sewer', 'UTILITIES', 33.25 UNION ALL SELECT 'trash', 'UTILITIES', 18.0) AS code
    WHERE r.unified_property_id LIKE 'scale_%'""")
c.execute("""
    WITH RECURSIVE m(k, first_day) AS (
        SELECT 0, date(:as_of, 'start of month', '-' || (:months - 1) || ' months')
        UNION ALL SELECT k + 1, date(first_day, '+1 month') FROM m WHERE k + 1 < :months)
    INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
        category, category_known, period, amount, amount_paid, balance)
    SELECT rc.unified_property_id, rc.lease_id || '-' || rc.charge_code || '-' || m.k, rc.resident_id, rc.lease_id,
           rc.unit_number, rc.charge_code, rc.category, 1, substr(m.first_day, 1, 7), amount, 0, amount
    FROM (SELECT rc.*, m.k, m.first_day,
                 max(rc.start_date, m.first_day) AS f,
                 CAST(strftime('%d', date(m.first_day, '+1 month', '-1 day')) AS INTEGER) AS dim
          FROM unified_recurring_charges rc, m
          WHERE rc.unified_property_id LIKE 'scale_%'
            AND date(m.first_day, '+1 month', '-1 day') >= rc.start_date) AS rc
    JOIN m ON m.k = rc.k,
    LATERAL (SELECT 1) AS dummy
    """.replace(",\n    LATERAL (SELECT 1) AS dummy", "").replace(
        "substr(m.first_day, 1, 7), amount, 0, amount",
        """substr(m.first_day, 1, 7),
           round(((CAST(round(rc.amount * 100) AS INTEGER) * (CAST(julianday(date(m.first_day, '+1 month', '-1 day')) - julianday(rc.f) AS INTEGER) + 1) + rc.dim / 2) / rc.dim) / 100.0
                 - CASE WHEN (abs(random()) % 200) = 0 THEN 5 ELSE 0 END, 2), 0, 0"""), p)
c.commit()
for t in ("unified_properties", "unified_residents", "unified_recurring_charges", "unified_charges"):
    print(t, c.execute("SELECT count(*) FROM " + t).fetchone()[0])
