"""unified_compare.py: the nightly and the rebuilt unified.db, and --every-date (a unified.db against what a
PostgreSQL server holds of it, read back through a reader's mirror)."""

import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(__file__)
SCRIPT = os.path.join(HERE, "..", "unified_compare.py")
SHAPE = os.path.join(HERE, "..", "..", "..", "Sources", "PostgresUnified", "UnifiedShape.swift")
sys.path.insert(0, os.path.join(HERE, ".."))
import unified_compare  # noqa: E402


def make(path, metrics, marks=()):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE unified_properties (unified_property_id TEXT, as_of_date TEXT, synced_at TEXT)")
    db.execute("INSERT INTO unified_properties VALUES ('kalaco', '2026-11-27', 'x')")
    for table in unified_compare.CURRENT_STATE:
        db.execute("CREATE TABLE %s (id INTEGER PRIMARY KEY, unified_property_id TEXT)" % table)
    for table in unified_compare.SNAPSHOTS:
        db.execute("CREATE TABLE %s (id INTEGER PRIMARY KEY, unified_property_id TEXT, as_of_date TEXT, value REAL)"
                   % table)
    db.executemany("INSERT INTO unified_occupancy_metrics (unified_property_id, as_of_date, value) VALUES (?, ?, ?)",
                   metrics)
    db.execute("CREATE TABLE ledger_sync_marks (unified_property_id TEXT, lineage_id INTEGER)")
    db.executemany("INSERT INTO ledger_sync_marks VALUES (?, ?)", marks)
    db.commit()
    db.close()


class UnifiedCompareTests(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_the_host_only_tables_are_the_publishers_bookkeeping(self):
        with open(SHAPE) as file:
            source = file.read()
        found = re.search(r"static let bookkeeping: Set<String> = \[(.*?)\]", source, re.S)
        self.assertIsNotNone(found, "UnifiedShape.bookkeeping not found")
        self.assertEqual(set(re.findall(r'"([a-z_]+)"', found.group(1))), unified_compare.HOST_ONLY)

    def test_every_date_finds_a_history_row_the_latest_date_does_not_show(self):
        with tempfile.TemporaryDirectory() as tmp:
            local, mirror = os.path.join(tmp, "unified.db"), os.path.join(tmp, "mirror.db")
            make(local, [("kalaco", "2026-11-26", 0.91), ("kalaco", "2026-11-27", 0.92)], marks=[("kalaco", 7)])
            # The server lost an earlier night's row; the host's own marks never travel.
            make(mirror, [("kalaco", "2026-11-26", 0.90), ("kalaco", "2026-11-27", 0.92)])
            latest = self.run_script(local, mirror)
            self.assertEqual(latest.returncode, 0, latest.stdout + latest.stderr)
            every = self.run_script("--every-date", local, mirror)
            self.assertEqual(every.returncode, 2, every.stdout)
            self.assertIn("unified_occupancy_metrics", every.stdout)
            self.assertIn("only nightly: ('kalaco', '2026-11-26', 0.91)", every.stdout)
            self.assertNotIn("ledger_sync_marks", every.stdout)

    def test_every_date_names_a_table_the_server_does_not_hold(self):
        with tempfile.TemporaryDirectory() as tmp:
            local, mirror = os.path.join(tmp, "unified.db"), os.path.join(tmp, "mirror.db")
            rows = [("kalaco", "2026-11-27", 0.92)]
            make(local, rows)
            make(mirror, rows)
            db = sqlite3.connect(local)
            db.execute("CREATE TABLE unified_new_things (unified_property_id TEXT)")
            db.commit()
            db.close()
            every = self.run_script("--every-date", local, mirror)
            self.assertEqual(every.returncode, 2, every.stdout)
            self.assertIn("only in the first: unified_new_things", every.stdout)


if __name__ == "__main__":
    unittest.main()
