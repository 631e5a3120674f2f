#!/usr/bin/env python3
"""Writes a report_definitions.json with N generated RealPage properties for the scale benchmark.

    python3 scripts/bench/make_scale_registry.py OUT.json [N] [--from report_definitions.json]

The catalogue (pmc_id, management company, RealPage endpoints, Yardi section) is copied from the
repository's registry; `realpage.reports` is the simulator's own catalogue (`scripts/pms_sim catalogue`:
the report ids it serves with its stand-in keys, which the shipped registry does not carry; each report's `nightly`
kept from the registry, scripts/lib/catalogue_overlay.py) and
`properties` is replaced, by N RealPage properties with keys
`scale_0001` .. , names `Scale Property 0001` .. and distinct 7-digit site ids that cannot collide with
the real registry's (they start at 8000001, above every OneSite id in it). The simulator
(`scripts/pms_sim --config OUT.json`) generates each of them with 100-450 units from its key, so the
portfolio is deterministic for a given seed and N.
"""

import argparse
import json
import os
import sys

FIRST_SITE_ID = 8000001


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("count", nargs="?", type=int, default=500)
    ap.add_argument("--from", dest="source", default=os.path.join(here, "..", "..", "report_definitions.json"))
    a = ap.parse_args(argv)
    if a.count < 1 or a.count > 9999:
        ap.error("count must be 1..9999")
    with open(a.source) as f:
        registry = json.load(f)
    taken = {str(p.get("site_id")) for p in registry.get("properties", [])}
    if any(str(FIRST_SITE_ID + i) in taken for i in range(a.count)):
        sys.exit("make_scale_registry: a generated site id collides with %s" % a.source)
    sys.path.insert(0, os.path.join(here, ".."))
    sys.path.insert(0, os.path.join(here, "..", "lib"))
    from pms_sim.reports import catalogue
    from catalogue_overlay import overlay
    registry = overlay(registry, catalogue())
    registry["properties"] = [
        {"key": "scale_%04d" % (i + 1), "name": "Scale Property %04d" % (i + 1), "pms": "realpage",
         "site_id": str(FIRST_SITE_ID + i)}
        for i in range(a.count)
    ]
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(registry, f, indent=2)
        f.write("\n")
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
