#!/usr/bin/env python3
"""Lays the PMS simulator's report catalogue over a registry, as `ownerdash demo` does (ReportCatalogueOverlay):
`realpage.reports` becomes the simulator's (its report ids and stand-in keys), each report keeping the registry's
`nightly` for its parser, so that a benchmark's night fetches what a user's night fetches.

    python3 scripts/lib/catalogue_overlay.py REGISTRY.json OVERLAY.json OUT.json
"""

import json
import sys


def overlay(registry, catalogue):
    """The registry (a dict) with the catalogue's reports, each keeping the registry's `nightly` for its parser."""
    nightly = {r["parser"]: r["nightly"] for r in registry["realpage"].get("reports", []) if "nightly" in r}
    reports = []
    for report in catalogue["realpage"]["reports"]:
        report = dict(report)
        if "nightly" not in report and report.get("parser") in nightly:
            report["nightly"] = nightly[report["parser"]]
        reports.append(report)
    registry["realpage"]["reports"] = reports
    return registry


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    registry_path, overlay_path, out = sys.argv[1:]
    with open(registry_path) as f, open(overlay_path) as g:
        merged = overlay(json.load(f), json.load(g))
    with open(out, "w") as f:
        json.dump(merged, f, indent=1)
