#!/usr/bin/env python3
"""How much of each RPX whole-state answer repeats the night before, record by record, byte for byte: the measure of
what a load that skipped the unchanged records could save (docs/contributors.md, "Where a churned night goes now").

RPX answers getresidentlistinfo, getleaseinfo, unitlist, getunitlist and getscheduledcharges with the property's
whole current list every night. This reads two landed runs of one data directory, splits each property's answer of
both nights into its record elements (the element each operation lists, below) and counts the records of the later
night whose bytes the earlier night's answer of the same property holds too.

  python3 scripts/bench/record_churn.py DATA_DIR RUN_EARLIER RUN_LATER

RUN_*: a run id or its prefix (`20261129`), as under DATA_DIR/landing. Prints one line per operation: records of the
later night, how many and what share of them (and of its bytes) are unchanged; exit 2 when a run is not found."""
import json
import pathlib
import re
import sys
import zlib

USAGE = "usage: record_churn.py DATA_DIR RUN_EARLIER RUN_LATER"

# The record element of each whole-state operation (docs/rpx-soap.md, "Operations": each payload's list).
RECORDS = {
    "getresidentlistinfo.xml": b"resident",
    "getleaseinfo.xml": b"Lease",
    "unitlist.xml": b"Unit",
    "getunitlist.xml": b"UnitObject",
    "getscheduledcharges.xml": b"ScheduledCharge",
}


def landed(data: pathlib.Path, run: str) -> dict[str, pathlib.Path]:
    """The run's artifacts: their path as fetched (`realpage/<property>/<file>`) -> the landed object."""
    runs = sorted((data / "landing").glob(run + "*/manifest.json"))
    if not runs:
        raise LookupError(f"record_churn.py: no run {run!r} under {data / 'landing'}")
    manifest = json.loads(runs[0].read_text())
    return {entry["path"]: data / "landing" / entry["object"]
            for entry in manifest["artifacts"] if entry.get("path") and entry.get("object")}


def body(path: pathlib.Path) -> bytes:
    """An object's bytes as fetched: a `.z` object is raw DEFLATE."""
    raw = path.read_bytes()
    return zlib.decompress(raw, -15) if path.name.endswith(".z") else raw


def records(document: bytes, tag: bytes) -> list[bytes]:
    """Each `<tag ...>...</tag>` element of the document, in order (the lists never nest their record element)."""
    return re.findall(rb"<" + re.escape(tag) + rb"[\s>].*?</" + re.escape(tag) + rb">", document, re.S)


def main() -> int:
    if len(sys.argv) != 4:
        print(USAGE, file=sys.stderr)
        return 2
    data = pathlib.Path(sys.argv[1])
    try:
        earlier, later = landed(data, sys.argv[2]), landed(data, sys.argv[3])
    except LookupError as error:
        print(error, file=sys.stderr)
        return 2
    totals: dict[str, list[int]] = {}
    for path, obj in sorted(later.items()):
        name = path.rsplit("/", 1)[-1]
        if name not in RECORDS or path not in earlier:
            continue
        tag = RECORDS[name]
        before = set(records(body(earlier[path]), tag))
        now = records(body(obj), tag)
        count = totals.setdefault(name, [0, 0, 0, 0])
        count[0] += len(now)
        count[1] += sum(1 for record in now if record in before)
        count[2] += sum(len(record) for record in now if record in before)
        count[3] += sum(len(record) for record in now)
    for name, (total, same, same_bytes, all_bytes) in sorted(totals.items()):
        print(f"{name:26s} {total:7d} records, {same:7d} unchanged ({100 * same / max(total, 1):.1f} %; "
              f"{100 * same_bytes / max(all_bytes, 1):.1f} % of their bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
