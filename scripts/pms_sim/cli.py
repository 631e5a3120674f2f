"""Command line, configuration, truth writing and the serve loop."""

import argparse
import gc
import datetime as dt
import json
import os
import re
import signal
import sys
import threading
import time

DEFAULT_AS_OF = "2026-11-20"


class Config:
    def __init__(self, a):
        self.port = a.port
        self.host = a.host
        self.seed = a.seed
        self.as_of = dt.date.fromisoformat(a.as_of)
        self.verbose = a.verbose
        self.reports_base = "/" + a.reports_base.strip("/")
        self.rpx_path = "/" + a.rpx_path.strip("/")
        self.yardi_base = "/" + a.yardi_base.strip("/")
        self.latency_ms = a.latency_ms
        self.retry_after = a.retry_after
        # Each random fault's rate, in FAULT_KINDS' order (the order the draws are made in).
        self.fault_rates = dict(zip(FAULT_KINDS, (a.fault_5xx_rate, a.fault_429_rate, a.fault_truncate_rate,
                                                  a.fault_malformed_rate, a.fault_soap_rate, a.fault_reset_rate)))
        self.fault_seed = a.fault_seed if a.fault_seed is not None else a.seed
        self.fault_first = [parse_fault_first(x) for x in (a.fault_first or [])]
        self.token_prefix = "sim-token-"
        self.token_max_requests = a.token_max_requests
        self.token_ttl_seconds = a.token_ttl_seconds
        self.ready_polls = a.ready_polls
        self.ready_seconds = a.ready_seconds
        self.fail_properties = set(a.fail_property or [])
        self.withheld_reports = set(a.withhold_report or [])
        self.rpx_license_key = a.rpx_license_key
        self.rpx_denied_sites = set(a.rpx_denied_site if a.rpx_denied_site is not None else ["ridian"])
        self.yardi_username = a.yardi_username
        self.yardi_password = a.yardi_password
        self.yardi_server = a.yardi_server
        self.yardi_database = a.yardi_database
        self.yardi_entity = a.yardi_entity
        self.yardi_license = a.yardi_license
        self.yardi_unlicensed = {x.lower() for x in (a.yardi_unlicensed_interface or [])}

    def public(self):
        d = dict(self.__dict__)
        d["as_of"] = self.as_of.isoformat()
        d["fail_properties"] = sorted(self.fail_properties)
        d["withheld_reports"] = sorted(self.withheld_reports)
        d["rpx_denied_sites"] = sorted(self.rpx_denied_sites)
        d["yardi_unlicensed"] = sorted(self.yardi_unlicensed)
        return d


# The faults drawn at random (`--fault-*-rate`) or on a request's first occurrence (`--fault-first`).
FAULT_KINDS = ("5xx", "429", "truncate", "malformed-xml", "soap-fault", "reset")


def parse_fault_first(value):
    """'KIND:REGEX' -> (kind, compiled regex); a bad value stops the simulator with a one-line error."""
    kind, sep, pattern = value.partition(":")
    if not sep or kind not in FAULT_KINDS:
        raise SystemExit("pms_sim: --fault-first %r: expected KIND:REGEX, KIND one of %s" % (value, ", ".join(FAULT_KINDS)))
    try:
        return kind, re.compile(pattern)
    except re.error as e:
        raise SystemExit("pms_sim: --fault-first %r: bad REGEX: %s" % (value, e))


def parser():
    ap = argparse.ArgumentParser(prog="pms_sim", description="RealPage/Yardi simulator (see README.md)")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = ephemeral)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--as-of", default=DEFAULT_AS_OF, help="property date YYYY-MM-DD (default %s)" % DEFAULT_AS_OF)
    ap.add_argument("--truth-out", help="ground truth JSON path (default <dir>/truth.json)")
    ap.add_argument("--dir", default=None, help="output directory for truth.json (default: a temp dir)")
    ap.add_argument("--no-ledger-truth", action="store_true", help="omit the per-month ledger truth (smaller file)")
    ap.add_argument("--config", default=None, help="report_definitions.json to read the RealPage registry from")
    ap.add_argument("--verbose", action="store_true", help="log every request to stderr")
    ap.add_argument("--reports-base", default="/realpage/reports/v1")
    ap.add_argument("--rpx-path", default="/realpage/rpx/partner/OwnerDash/OwnerDash.svc")
    ap.add_argument("--yardi-base", default="/yardi/webservices")
    f = ap.add_argument_group("faults")
    f.add_argument("--latency-ms", type=int, default=0, help="added latency on every request")
    f.add_argument("--fault-5xx-rate", type=float, default=0.0, help="probability of a 503")
    f.add_argument("--fault-429-rate", type=float, default=0.0, help="probability of a 429")
    f.add_argument("--retry-after", type=int, default=1, help="Retry-After seconds on 429")
    f.add_argument("--fault-truncate-rate", type=float, default=0.0, help="probability of a truncated body")
    f.add_argument("--fault-malformed-rate", type=float, default=0.0, help="probability of a malformed body")
    f.add_argument("--fault-soap-rate", type=float, default=0.0, help="probability of a SOAP fault (SOAP endpoints)")
    f.add_argument("--fault-reset-rate", type=float, default=0.0, help="probability of a dropped connection")
    f.add_argument("--fault-first", action="append", metavar="KIND:REGEX",
                   help="the first of each distinct request (method, path, body) whose 'METHOD path' matches REGEX "
                        "gets fault KIND (5xx, 429, truncate, malformed-xml, soap-fault, reset); repeatable")
    f.add_argument("--fault-seed", type=int, default=None, help="seed for the random faults (default --seed)")
    f.add_argument("--token-max-requests", type=int, default=0, help="a token expires after N requests (0 = never)")
    f.add_argument("--token-ttl-seconds", type=float, default=0, help="a token expires N s after first use")
    f.add_argument("--ready-polls", type=int, default=1,
                   help="report instance becomes ready after it was listed this many times (default 1)")
    f.add_argument("--ready-seconds", type=float, default=0.0, help="minimum seconds before a report is ready")
    f.add_argument("--fail-property", action="append", help="property KEY whose requests always fail (repeatable)")
    f.add_argument("--withhold-report", action="append", type=int, metavar="ID",
                   help="report id this account does not offer: its create request answers 404 'Report ID was not "
                        "found' (repeatable; --withhold-report 4299 leaves Lease Expiration only as 3838)")
    f.add_argument("--no-quirk", action="append",
                   help="turn one vendor quirk of quirks.py off (repeatable; README 'Quirk catalogue')")
    f.add_argument("--quirk", action="append",
                   help="turn one opt-in vendor quirk of quirks.py on (yardi_error_answers, yardi_no_unit_information, "
                        "yardi_amount_paid_beyond_window, yardi_units_from_ils_feed; "
                        "repeatable)")
    c = ap.add_argument_group("credentials")
    c.add_argument("--rpx-license-key", default="sim-rpx-license-key")
    c.add_argument("--rpx-denied-site", action="append",
                   help="property KEY refused getresidentledger/getscheduledcharges (default ridian; repeatable)")
    c.add_argument("--yardi-unlicensed-interface", action="append",
                   help="Yardi interface (e.g. ItfServiceRequests) the entity holds no license for (repeatable)")
    c.add_argument("--yardi-username", default="simuser")
    c.add_argument("--yardi-password", default="simpass")
    c.add_argument("--yardi-server", default="sim_sql")
    c.add_argument("--yardi-database", default="sim_voyager")
    c.add_argument("--yardi-entity", default="OwnerDash")
    c.add_argument("--yardi-license", default="sim-yardi-license")
    return ap


def build_truth_json(world, keys, include_ledger):
    """{key: json text} for the given property keys."""
    from . import truth as T
    out = {}
    for k in keys:
        p = world.get(k)
        out[k] = json.dumps(T.property_truth(world.gen, p, include_ledger), separators=(",", ":"))
    return out


def write_truth(world, cfg, path, include_ledger):
    """Generate every property and write the truth file.  Where fork() exists, a child process generates and
    describes half of the properties while this process does the other half (the child's properties are
    generated again here afterwards, in the background, for serving)."""
    keys = world.keys
    mine, theirs = keys, []
    child = None
    rfd = None
    if hasattr(os, "fork") and len(keys) > 1 and os.environ.get("PMS_SIM_NO_FORK") != "1":
        mine, theirs = keys[0::2], keys[1::2]
        rfd, wfd = os.pipe()
        child = os.fork()
        if child == 0:
            try:
                os.close(rfd)
                data = json.dumps(build_truth_json(world, theirs, include_ledger)).encode()
                with os.fdopen(wfd, "wb") as f:
                    f.write(data)
            finally:
                os._exit(0)
        os.close(wfd)
    parts = build_truth_json(world, mine, include_ledger)
    if child:
        with os.fdopen(rfd, "rb") as f:
            data = f.read()
        os.waitpid(child, 0)
        if not data:
            raise RuntimeError("truth worker failed")
        parts.update(json.loads(data.decode()))
    meta = {"simulator": "pms_sim", "version": 1, "seed": cfg.seed, "as_of": cfg.as_of.isoformat(),
            "ledger_window": {"start": world.gen.win_start.isoformat(), "end": cfg.as_of.isoformat(),
                              "months": [m[3] for m in world.gen.months]},
            "money": "dollars (2 decimals) except ledger.*.months and *_cents, which are integer cents",
            "pmc_id": "4248314",
            "credentials": {"realpage_token": "any 'sim-token-*' string (see README)",
                            "rpx_license_key": cfg.rpx_license_key, "rpx_ledger_denied": sorted(cfg.rpx_denied_sites),
                            "yardi": {"UserName": cfg.yardi_username, "Password": cfg.yardi_password,
                                      "ServerName": cfg.yardi_server, "Database": cfg.yardi_database,
                                      "Platform": "SQL Server", "InterfaceEntity": cfg.yardi_entity,
                                      "InterfaceLicense": cfg.yardi_license}},
            "fail_properties": sorted(cfg.fail_properties),
            "quirks": world.quirks.as_truth(), "quirk_details": world.quirks.details_truth()}
    head = json.dumps(meta, separators=(",", ":"))[:-1]
    body = ",".join('"%s":%s' % (k, parts[k]) for k in keys)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(head + ',"properties":{' + body + "}}")
    os.replace(tmp, path)
    return theirs


def main(argv):
    if argv and argv[0] == "token":
        from .server import new_token
        print(new_token())
        return 0
    if argv and argv[0] == "catalogue":
        # `catalogue [--with PARSER ...]`: the overlay, with the optional reports named (reports.OPTIONAL).
        from .reports import catalogue, OPTIONAL
        extra = [name for flag, name in zip(argv[1:], argv[2:]) if flag == "--with"]
        unknown = sorted(set(extra) - OPTIONAL)
        if unknown:
            print("pms_sim: catalogue --with: %s is no optional report (optional: %s)"
                  % (", ".join(unknown), ", ".join(sorted(OPTIONAL))), file=sys.stderr)
            return 1
        print(json.dumps(catalogue(extra), indent=2))
        return 0
    a = parser().parse_args(argv)
    try:
        cfg = Config(a)
    except ValueError as e:
        print("pms_sim: %s" % e, file=sys.stderr)
        return 1
    from .world import World
    from .server import SimServer, SimState

    t0 = time.time()
    gc.disable()        # generation allocates ~1M long-lived objects; GC passes would double the start time
    from .quirks import CATALOGUE, OPT_IN
    for q in a.no_quirk or []:
        if q not in CATALOGUE:
            print("pms_sim: unknown quirk %r (known: %s)" % (q, ", ".join(sorted(CATALOGUE))), file=sys.stderr)
            return 1
    for q in a.quirk or []:
        if q not in OPT_IN:
            print("pms_sim: %r is not an opt-in quirk (opt-in: %s)" % (q, ", ".join(sorted(OPT_IN))), file=sys.stderr)
            return 1
    world = World(cfg.seed, cfg.as_of, a.config, a.no_quirk or (), a.quirk or ())
    for k in cfg.fail_properties | cfg.rpx_denied_sites:
        if k not in world.specs:
            print("pms_sim: unknown property key %r" % k, file=sys.stderr)
            return 1
    if a.truth_out:
        truth_path = a.truth_out
    else:
        d = a.dir
        if d is None:
            import tempfile
            d = tempfile.mkdtemp(prefix="pms_sim_")
        os.makedirs(d, exist_ok=True)
        truth_path = os.path.join(d, "truth.json")
    # bind first so a port clash fails fast, then generate + write truth, then announce
    state = SimState(world, cfg)
    state.truth_path = os.path.abspath(truth_path)
    try:
        httpd = SimServer((cfg.host, cfg.port), state)
    except OSError as e:
        print("pms_sim: cannot bind %s:%d: %s" % (cfg.host, cfg.port, e), file=sys.stderr)
        return 3
    pending = write_truth(world, cfg, truth_path, not a.no_ledger_truth)
    # The report ids and keys served, for the client's configuration (ownerdash demo overlays it).
    from .reports import catalogue
    catalogue_path = os.path.join(os.path.dirname(os.path.abspath(truth_path)), "report_catalogue.json")
    with open(catalogue_path, "w") as out:
        json.dump(catalogue(), out, indent=2)
    port = httpd.server_address[1]
    sys.stdout.write("listening on http://%s:%d\n" % (cfg.host, port))
    sys.stdout.flush()
    sys.stderr.write("pms_sim: seed=%d as_of=%s truth=%s ready in %.2fs\n" % (
        cfg.seed, cfg.as_of.isoformat(), state.truth_path, time.time() - t0))
    sys.stderr.flush()
    def warm():
        world.warm(pending)
        gc.freeze()     # the portfolio lives for the whole run: keep it out of future collections
        gc.enable()

    threading.Thread(target=warm, daemon=True).start()

    def stop(signum, frame):
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        httpd.serve_forever(poll_interval=0.2)
    finally:
        httpd.server_close()
    return 0
