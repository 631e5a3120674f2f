"""PMS simulator: RealPage (Reporting REST + RPX SOAP) and Yardi Voyager SOAP on loopback.

    python3 scripts/pms_sim --port 0 --seed 7 [--truth-out FILE] [--as-of 2026-11-20] [fault flags]
    python3 scripts/pms_sim token          # prints a fresh bearer token (REALPAGE_TOKEN_COMMAND)

--exit-on-stdin-eof (opt-in, for test harnesses): exit as soon as stdin closes, so the simulator dies with
the process that started it, however that process ends.

See scripts/pms_sim/README.md.
"""

import os
import sys

if __package__ in (None, ""):
    # run as `python3 scripts/pms_sim`: make the package importable as pms_sim
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "pms_sim"

from pms_sim.cli import main  # noqa: E402


def exit_when_stdin_closes():
    # The harness holds our stdin; when it goes away (normally or killed), so do we.
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    os._exit(0)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--exit-on-stdin-eof" in argv:
        argv = [a for a in argv if a != "--exit-on-stdin-eof"]
        import threading
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    sys.exit(main(argv))
