#!/usr/bin/env python3
"""Runs a command N times and prints its wall-time percentiles and peak RSS, for scripts/bench/scale.sh.

    python3 scripts/bench/run_timed.py [--warmup K] N CMD [ARG ...]

Each run is spawned directly (no shell) with stdout to /dev/null and stderr to a pipe; the time is taken
around spawn + wait, so process start-up is included, as a user running the command would see it. Peak RSS
is the largest ru_maxrss of the runs, read from wait4 (the number GNU time reports as "Maximum resident set
size"). Prints one line:

    runs=N failed=F p50_ms=.. p90_ms=.. min_ms=.. max_ms=.. peak_rss_kib=..

and, when a run failed, `error=` followed by the last line of its stderr. Exit 0 even then: the caller decides.
"""

import math
import os
import sys
import time


def run_once(argv):
    read_end, write_end = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, write_end, 2)]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    os.close(write_end)
    os.close(devnull)
    # Drain stderr while the child runs so a chatty command cannot block on a full pipe.
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(read_end)
    return elapsed, os.waitstatus_to_exitcode(status), usage.ru_maxrss, b"".join(chunks).decode(errors="replace")


def percentile(sorted_values, fraction):
    """Nearest-rank percentile: the smallest value with at least `fraction` of the runs at or below it."""
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def main(argv):
    warmup = 1
    if len(argv) >= 2 and argv[0] == "--warmup":
        warmup = int(argv[1])
        argv = argv[2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    runs, command = int(argv[0]), argv[1:]
    for _ in range(warmup):
        run_once(command)
    times, failed, peak, error = [], 0, 0, ""
    for _ in range(runs):
        elapsed, code, rss, stderr = run_once(command)
        times.append(elapsed * 1000)
        peak = max(peak, rss)
        if code != 0:
            failed += 1
            if not error:
                lines = [line for line in stderr.splitlines() if line.strip()]
                error = "exit %d: %s" % (code, lines[-1] if lines else "(no stderr)")
    times.sort()
    line = "runs=%d failed=%d p50_ms=%.2f p90_ms=%.2f min_ms=%.2f max_ms=%.2f peak_rss_kib=%d" % (
        runs, failed, percentile(times, 0.5), percentile(times, 0.9), times[0], times[-1], peak)
    if error:
        line += " error=" + error.replace("\n", " ")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
