"""PMS simulator: RealPage (Reporting REST + RPX SOAP) and Yardi Voyager SOAP on loopback.

    python3 scripts/pms_sim --port 0 --seed 7 [--truth-out FILE] [--as-of 2026-11-20] [fault flags]
    python3 scripts/pms_sim token          # prints a fresh bearer token (REALPAGE_TOKEN_COMMAND)

See scripts/pms_sim/README.md.
"""

import os
import sys

if __package__ in (None, ""):
    # run as `python3 scripts/pms_sim`: make the package importable as pms_sim
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "pms_sim"

from pms_sim.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
