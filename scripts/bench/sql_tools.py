"""Opens DATA_DIR/unified.db with Datasette and DuckDB (scripts/bench/sql_tools.sh runs it in its virtualenv).

Datasette: serves the database read-only (with DATA_DIR/metadata.json when present) and fetches the HTML page of
every table and view: each must answer 200. DuckDB: attaches the file with its SQLite scanner and lists the columns
of every table and view: each must have every column `PRAGMA table_xinfo` lists. Prints what failed, exits 1 then.
"""
import glob
import os
import socket
import sqlite3
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.parse
import urllib.request

import duckdb


def relations(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        names = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY type, name")]
        return {name: [row[1] for row in db.execute("SELECT * FROM pragma_table_xinfo(?)", (name,))] for name in names}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def datasette(path, binary, names):
    port = free_port()
    command = [binary, "serve", "--immutable", path, "--port", str(port), "--setting", "sql_time_limit_ms", "20000"]
    metadata = os.path.join(os.path.dirname(path), "metadata.json")
    if os.path.exists(metadata):
        command += ["--metadata", metadata]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    failures = []
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/-/versions.json", timeout=2).read()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        database = os.path.splitext(os.path.basename(path))[0]
        for name in names:
            url = f"{base}/{database}/{urllib.parse.quote(name)}"
            try:
                status = urllib.request.urlopen(url, timeout=120).status
            except urllib.error.HTTPError as error:
                status = error.code
            if status != 200:
                failures.append(f"{name}: HTTP {status}")
    finally:
        server.terminate()
        server.wait()
    return failures


def duck(path, expected):
    failures = []
    db = duckdb.connect()
    # The SQLite scanner comes from PyPI (duckdb-ext-sqlite, matched to the duckdb version), not from DuckDB's own
    # extension server, which this machine cannot reach.
    found = glob.glob(os.path.join(sysconfig.get_paths()["purelib"], "duckdb_ext", "extensions", "v*", "*",
                                   "sqlite_scanner.duckdb_extension"))
    if not found:
        sys.exit("duckdb: no sqlite_scanner extension in the virtualenv (pip install duckdb-ext-sqlite)")
    db.execute(f"LOAD '{found[0]}'")
    db.execute(f"ATTACH '{path}' AS u (TYPE sqlite, READ_ONLY)")
    for name, columns in expected.items():
        seen = [row[0] for row in db.execute(f'DESCRIBE u."{name}"').fetchall()]
        missing = [column for column in columns if column not in seen]
        if missing:
            failures.append(f"{name}: {len(seen)} of {len(columns)} columns, missing {', '.join(missing)}")
    return failures


def main():
    data, binary = sys.argv[1], sys.argv[2]
    path = os.path.abspath(os.path.join(data, "unified.db"))
    expected = relations(path)
    columns = sum(len(c) for c in expected.values())
    started = time.time()
    pages = datasette(path, binary, list(expected))
    print(f"datasette: {len(expected) - len(pages)} of {len(expected)} table and view pages answer 200 "
          f"({time.time() - started:.1f} s)")
    for failure in pages:
        print(f"  {failure}")
    started = time.time()
    cols = duck(path, expected)
    print(f"duckdb: {len(expected) - len(cols)} of {len(expected)} tables and views show every column "
          f"({columns} columns, {time.time() - started:.1f} s)")
    for failure in cols:
        print(f"  {failure}")
    sys.exit(1 if pages or cols else 0)


if __name__ == "__main__":
    main()
