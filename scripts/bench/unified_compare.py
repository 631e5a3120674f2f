#!/usr/bin/env python3
"""Compares two unified.db files row for row: a data directory synced night after night by change against a full
sync of the same raw data into a fresh unified.db (scripts/bench/year.sh runs it at the end of the year).

    python3 scripts/bench/unified_compare.py NIGHTLY_UNIFIED_DB REBUILT_UNIFIED_DB
    python3 scripts/bench/unified_compare.py --every-date UNIFIED_DB MIRROR_DB

Compared: unified_properties and every current-state table (the tables each sync replaces per property), and the
snapshot tables at each property's date (earlier dates are history a fresh directory cannot have), every column
but those a sync numbers or stamps (`id`, `*run_id`, `*_at`, `sync_fingerprint`). Prints one line per table, and
for a table that differs its first differing rows on each side. Exit 0 when every table is identical, 2 when not.

--every-date compares a unified.db with what a PostgreSQL server holds of it (a reader's mirror, year.sh --postgres):
every table both files hold but the host's own bookkeeping, which never travels (HOST_ONLY), the snapshot tables at
every date, with the same columns left out.
"""

import sqlite3
import sys

CURRENT_STATE = [
    "unified_units", "unified_residents", "unified_leases", "unified_lease_residents", "unified_activity",
    "unified_sync_warnings", "unified_charges", "unified_payments", "unified_recurring_charges", "unified_work_orders",
    "unified_work_order_lines", "unified_make_ready_periods", "unified_expenses", "unified_income",
    "unified_ledger_balances", "unified_household_balances",
]
# The tables a host keeps for itself and does not publish: PostgresUnified's UnifiedShape.bookkeeping (held to it by
# scripts/bench/tests/test_unified_compare.py).
HOST_ONLY = {
    "schema_migrations", "sqlite_sequence", "unpublished_changes", "published_syncs", "ledger_sync_marks",
    "sync_input_marks", "sync_activity_marks", "sync_activity_prospects", "sync_yardi_households",
    "sync_realpage_postings", "sync_household_sum_marks", "sync_yardi_gap_baselines", "sync_snapshot_marks",
}
SNAPSHOTS = ["unified_occupancy_metrics", "unified_pricing_metrics", "unified_delinquency", "unified_delinquency_metrics"]


def rows(db, table, every_date=False):
    columns = [r[1] for r in db.execute("SELECT * FROM pragma_table_info(?)", (table,))
               if r[1] != "id" and not r[1].endswith("run_id") and not r[1].endswith("_at") and r[1] != "sync_fingerprint"]
    names = ", ".join("t." + c for c in columns)
    where = ""
    if table in SNAPSHOTS and not every_date:
        where = ("WHERE t.as_of_date = (SELECT p.as_of_date FROM unified_properties p "
                 "WHERE p.unified_property_id = t.unified_property_id)")
    return columns, db.execute("SELECT %s FROM %s t %s ORDER BY %s" % (names, table, where, names)).fetchall()


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}


def main(argv):
    every_date = argv[1:2] == ["--every-date"]
    if every_date:
        argv = argv[:1] + argv[2:]
    if len(argv) != 3:
        sys.exit(__doc__.splitlines()[2].strip())
    nightly = sqlite3.connect("file:%s?mode=ro" % argv[1], uri=True)
    rebuilt = sqlite3.connect("file:%s?mode=ro" % argv[2], uri=True)
    differing = 0
    other = "what the server holds" if every_date else "a full sync of the same raw data"
    names = ["unified_properties"] + CURRENT_STATE + SNAPSHOTS
    if every_date:
        names = sorted((tables(nightly) & tables(rebuilt)) - HOST_ONLY)
        missing = sorted(tables(nightly) - tables(rebuilt) - HOST_ONLY)
        print("  %d tables in both (the host's own bookkeeping left out)%s"
              % (len(names), "; only in the first: " + ", ".join(missing) if missing else ""))
        differing += len(missing)
    for table in names:
        columns, mine = rows(nightly, table, every_date)
        _, theirs = rows(rebuilt, table, every_date)
        if mine == theirs:
            print("  %-32s %9d rows  identical" % (table, len(mine)))
            continue
        differing += 1
        only_mine = sorted(set(mine) - set(theirs))
        only_theirs = sorted(set(theirs) - set(mine))
        print("  %-32s DIFFERS: %d rows nightly, %d rebuilt; %d only nightly, %d only rebuilt (columns: %s)"
              % (table, len(mine), len(theirs), len(only_mine), len(only_theirs), ", ".join(columns)))
        for side, found in (("nightly", only_mine), ("rebuilt", only_theirs)):
            for row in found[:3]:
                print("    only %s: %s" % (side, str(row)[:400]))
    if differing:
        print("%d table(s) differ from %s" % (differing, other))
        return 2
    print("every table identical to %s" % other)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
