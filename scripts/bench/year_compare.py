#!/usr/bin/env python3
"""Compares the answers of a year of nightly ingests with those of a fresh full ingest of the last day
(scripts/bench/year.sh writes both files: each command's output after a `== command` line, run ids and timestamps
blanked). Every answer must be identical, with two exceptions that are history, not error:

* `report maintenance`, column `closed`: every work order completed on or before the date. The nightly directory
  kept the work orders of the Closed Make Ready windows of all its nights; a fresh ingest sees only the window the
  report covers on the last day. The nightly's count may be higher, never lower; every other figure (open, aged,
  closed in the window, days to complete, the make-ready months) must be equal.
* `report expenses`: a month the fresh directory has no Income Statement for (it fetched only the current fiscal
  period) may have one in the nightly directory (fetched when that period was current). Those cells, their rows'
  totals, the portfolio line's months that sum them, their account lines and sources are history; a category row
  only the nightly directory has is history when its amounts lie in those months (0.00 in a month both have); every
  other cell must be equal.

The ledger reports' `ledger_whole_as_of` table is left out of the comparison and counted: it names the ledgers nightly
windows have brought past their last whole pull, which a fresh full ingest never has (its ledgers are whole tonight).
So is the audit's run number (`parameters.run`): it counts the audits the directory ran before (a copy of a year's
directory, as night_after_year.sh measures, has the year's own), where the fresh directory's is its first.

  python3 scripts/bench/year_compare.py ANSWERS_YEAR ANSWERS_FRESH

Prints one line per command (identical / history kept / DIFFERS with the first differences); exit 0 when nothing
differs but history, 2 when an answer differs."""

import json
import sys


def sections(path):
    """`== command` -> the text under it."""
    out, name = {}, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("== "):
            name = line[3:].rstrip("\n")
            out[name] = []
        elif name is not None:
            out[name].append(line)
    return {k: "".join(v) for k, v in out.items()}


def parse(text):
    """The JSON document of a section (the lines before its `exit N` line)."""
    body = text.rsplit("exit ", 1)[0]
    return json.loads(body), text.rsplit("exit ", 1)[1].strip()


DISCLOSURE = "ledger_whole_as_of"
# The `property` of the line that sums every property (`query summary`'s and `query delinquency`'s `total`).
PORTFOLIO = "portfolio"


def document_of(text):
    """The JSON document of a section, where it starts (a section may hold other lines, as the audit's `exit N`
    before it) and where it ends; None when there is none."""
    start = 0 if text.startswith("{") else text.find("\n{") + 1
    if start == 0 and not text.startswith("{"):
        return None
    try:
        document, end = json.JSONDecoder().raw_decode(text, start)
    except ValueError:
        return None
    return document, start, end


def without_disclosure(text):
    """The section with its JSON document written again without the `ledger_whole_as_of` table, and the properties
    that table named."""
    found = document_of(text)
    if found is None:
        return text, []
    document, start, end = found
    rows = document.pop(DISCLOSURE, None) or []
    return text[:start] + json.dumps(document, indent=2) + text[end:], sorted(r.get("property") for r in rows)


def without_run_number(text):
    """The section with its JSON document's `parameters.run` (an audit's number) written as 0, and that number."""
    found = document_of(text)
    if found is None or not isinstance(found[0].get("parameters"), dict) or "run" not in found[0]["parameters"]:
        return text, None
    document, start, end = found
    run, document["parameters"]["run"] = document["parameters"]["run"], 0
    return text[:start] + json.dumps(document, indent=2) + text[end:], run


def differing_properties(year_text, fresh_text):
    """The properties of the rows one document's tables have and the other's lack (a row's `property`, else the
    property its audit `key` starts with, or a warning's text before its first colon; a table that is one row, as
    `query summary`'s portfolio `total`, read as that row); None when a section is not JSON or a differing row names
    none."""
    found = document_of(year_text), document_of(fresh_text)
    if None in found:
        return None
    (year, _, _), (fresh, _, _) = found
    properties = set()
    for table in set(year) | set(fresh):
        a, b = year.get(table), fresh.get(table)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            a, b = [a], [b]
        if not isinstance(a, list) or not isinstance(b, list):
            return None
        rows_a, rows_b = [json.dumps(r, sort_keys=True) for r in a], [json.dumps(r, sort_keys=True) for r in b]
        for row in [r for r in rows_a if r not in rows_b] + [r for r in rows_b if r not in rows_a]:
            record = json.loads(row)
            name = record.get("property") if isinstance(record, dict) else None
            if name is None and isinstance(record, dict) and isinstance(record.get("key"), str):
                name = record["key"].split(":")[0]
            if isinstance(record, str) and ": " in record:
                name = record.split(":")[0]
            if name is None:
                return None
            properties.add(name)
    return sorted(properties)


def keyed(records, key):
    return {tuple(r.get(k) for k in key): r for r in records or []}


def same_columns(label, ra, rb, skip, differences):
    """Every column of the fresh record `rb` but those in `skip` has the same value in the nightly record `ra`."""
    for column in rb:
        if column not in skip and ra.get(column) != rb[column]:
            differences.append("%s %s: %r against %r" % (label, column, ra.get(column), rb[column]))


def same_total(year, fresh, skip, differences):
    """The portfolio line (`total`, null for one property) agrees but for the columns in `skip`."""
    total_a, total_b = year.get("total"), fresh.get("total")
    if (total_a is None) != (total_b is None):
        differences.append("total: %r against %r" % (total_a, total_b))
    elif total_b is not None:
        same_columns("total", total_a, total_b, skip, differences)


def same_rest(year, fresh, compared, differences):
    """Every part of the document not `compared` by a rule is equal as a whole."""
    for rest in set(year) | set(fresh):
        if rest not in compared and year.get(rest) != fresh.get(rest):
            differences.append("%s differs" % rest)


def compare_maintenance(year, fresh, differences, history):
    for table, key in (("rows", ("property",)), ("by_category", ("property", "category"))):
        a, b = keyed(year.get(table), key), keyed(fresh.get(table), key)
        if a.keys() != b.keys():
            differences.append("%s: %s against %s" % (table, sorted(a), sorted(b)))
            continue
        for k in sorted(b, key=str):
            ra, rb = a[k], b[k]
            label = "%s %s" % (table, "/".join(map(str, k)))
            if (ra["closed"] or 0) < (rb["closed"] or 0):
                differences.append("%s closed %s < %s" % (label, ra["closed"], rb["closed"]))
            elif ra["closed"] != rb["closed"] and table == "rows":
                history.append("%s: %s work orders closed, %s in the fresh directory's window"
                               % (k[0], ra["closed"], rb["closed"]))
            same_columns(label, ra, rb, {"closed"}, differences)
    same_total(year, fresh, {"closed"}, differences)
    same_rest(year, fresh, ("rows", "by_category", "total"), differences)


def compare_expenses(year, fresh, differences, history):
    covered = {(s["property"], s["month"]) for s in fresh.get("sources") or []}
    kept = sorted({(s["property"], s["month"]) for s in year.get("sources") or []} - covered)
    for table, key in (("rows", ("property", "gl_category")), ("operating", ("property", "line"))):
        a, b = keyed(year.get(table), key), keyed(fresh.get(table), key)
        for k in sorted(set(a) - set(b), key=str):
            # A row only the nightly has is history when its amounts lie in months it kept: in a month both have, it
            # must be 0.00 (no line of its category then, which is why the fresh directory has no such row).
            months = [c for c, v in a[k].items() if c[:2] == "20" and v not in (None, 0)]
            if all((k[0], m) in kept for m in months):
                history.append("%s %s: only in months the nightly directory kept" % (table, "/".join(map(str, k))))
            else:
                differences.append("%s %s: only in the nightly directory" % (table, "/".join(map(str, k))))
        for k in sorted(b, key=str):
            if k not in a:
                differences.append("%s %s: missing from the nightly directory" % (table, "/".join(map(str, k))))
                continue
            ra, rb = a[k], b[k]
            kept_cells = {c for c in rb if c[:2] == "20" and rb[c] is None and ra.get(c) is not None and (k[0], c) in kept}
            same_columns("%s %s" % (table, "/".join(map(str, k))), ra, rb,
                         kept_cells | ({"total"} if kept_cells else set()), differences)
    # The portfolio line sums the properties: a month some property kept history for is history there too.
    skipped = {c for c in fresh.get("total") or {} if c in {m for _, m in kept}}
    same_total(year, fresh, skipped | ({"total"} if skipped else set()), differences)
    a = [r for r in year.get("accounts") or [] if (r["property"], r["month"]) not in kept]
    if a != (fresh.get("accounts") or []):
        differences.append("accounts of the months both directories have differ")
    if [s for s in year.get("sources") or [] if (s["property"], s["month"]) not in kept] != (fresh.get("sources") or []):
        differences.append("sources of the months both directories have differ")
    same_rest(year, fresh, ("rows", "operating", "accounts", "sources", "total"), differences)
    if kept:
        properties = sorted({p for p, _ in kept})
        months = sorted({m for _, m in kept})
        history.append("%d statement month(s) of %d propert(ies) fetched when current (%s .. %s)"
                       % (len(kept), len(properties), months[0], months[-1]))


RULES = {"report maintenance": compare_maintenance, "report expenses": compare_expenses}


def main(year_path, fresh_path):
    year, fresh = sections(year_path), sections(fresh_path)
    failed = False
    if list(year) != list(fresh):
        print("the two files answer different commands: %s against %s" % (list(year), list(fresh)))
        return 2
    for command in fresh:
        disclosed = []
        if DISCLOSURE in year[command] or DISCLOSURE in fresh[command]:
            (year[command], disclosed), (fresh[command], _) = without_disclosure(year[command]), without_disclosure(fresh[command])
        runs = None
        if command.startswith("audit"):
            (year[command], run_a), (fresh[command], run_b) = without_run_number(year[command]), without_run_number(fresh[command])
            runs = (run_a, run_b) if run_a != run_b else None
        if year[command] == fresh[command]:
            print("%s: identical%s%s" % (command, " (%d ledger(s) named as brought forward by windows since their whole pull)"
                                          % len(disclosed) if disclosed else "",
                                          " (audit run %s, the fresh directory's %s)" % runs if runs else ""))
            continue
        rule = RULES.get(command)
        differences, history = [], []
        if rule is None:
            differences.append("differs (diff the two files)")
            # Still a difference; said of which properties, and whether the answer named their ledgers as behind.
            properties = differing_properties(year[command], fresh[command]) if disclosed else None
            if properties:
                # The portfolio line sums the properties: it differs with them, and is named when each of them is;
                # differing alone, it sums nothing the answer named.
                summed = [p for p in properties if p != PORTFOLIO]
                unnamed = [p for p in summed if p not in disclosed] if summed else [PORTFOLIO]
                differences.append("in %s; %s" % (", ".join(properties),
                                                 "not named in ledger_whole_as_of: %s" % ", ".join(unnamed) if unnamed
                                                 else "each named in ledger_whole_as_of"))
        else:
            try:
                (a, code_a), (b, code_b) = parse(year[command]), parse(fresh[command])
            except (ValueError, IndexError) as error:
                differences.append("not JSON: %s" % error)
            else:
                if code_a != code_b:
                    differences.append("exit %s against %s" % (code_a, code_b))
                rule(a, b, differences, history)
        if differences:
            failed = True
            print("%s: DIFFERS: %s" % (command, "; ".join(differences[:5])))
        else:
            print("%s: identical but history the nightly kept: %s" % (command, "; ".join(history[:3])
                                                                       + ("; ..." if len(history) > 3 else "")))
    return 2 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[-2].strip(), file=sys.stderr)
        sys.exit(1)
    sys.exit(main(sys.argv[1], sys.argv[2]))
