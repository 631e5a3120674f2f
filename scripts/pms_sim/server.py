"""HTTP front: routing, fault injection, RealPage Reporting REST flow, control endpoints."""

import hashlib
import json
import re
import socket
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import forms as F
from . import reports as R
from . import rpx, yardi

XLSX_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class SimState:
    """Mutable server state shared by handler threads."""

    def __init__(self, world, cfg):
        self.world = world
        self.cfg = cfg
        self.lock = threading.Lock()
        self.instances = {}          # instance id -> dict
        self.instance_order = []
        self.next_instance = 8880000
        self.next_file = 5120000
        self.token_uses = {}         # token -> (count, first_use_time)
        self.occurrences = {}        # request identity -> count (for reproducible random faults)
        self.stats = {"requests": 0, "by_path": {}, "faults": {}}
        self.truth_path = None


def parse_fault_header(value):
    """'kind[;param], kind2[;param]' -> {kind: param or None}"""
    out = {}
    if not value:
        return out
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        kind, _, prm = part.partition(";")
        out[kind.strip().lower()] = prm.strip() or None
    return out


class Handler(BaseHTTPRequestHandler):
    server_version = "Microsoft-IIS/10.0"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle's algorithm the body waited for the client's delayed ACK
    # (40 ms) on every answer of a reused keep-alive connection.
    disable_nagle_algorithm = True

    # quiet by default
    def log_message(self, fmt, *args):
        if self.server.state.cfg.verbose:
            BaseHTTPRequestHandler.log_message(self, fmt, *args)

    # ------------------------------------------------------------------ plumbing
    def _read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n > 0 else b""

    def send(self, status, body, ctype="application/json; charset=utf-8", headers=None):
        if isinstance(body, str):
            body = body.encode("utf-8")
        faults = self.faults
        truncate = "truncate" in faults
        malformed = "malformed-xml" in faults or "malformed" in faults
        if malformed and status == 200:
            body = corrupt(body, ctype)
            self.server.state_note("malformed")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if truncate:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command == "HEAD":
            return
        if truncate:
            prm = faults.get("truncate")
            cut = int(prm) if prm and prm.isdigit() else len(body) // 2
            cut = max(0, min(cut, len(body) - 1))
            self.server.state_note("truncate")
            try:
                self.wfile.write(body[:cut])
                self.wfile.flush()
            except OSError:
                pass
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self.wfile.write(body)

    def send_json(self, status, obj, headers=None):
        self.send(status, json.dumps(obj), headers=headers)

    # ------------------------------------------------------------------ entry points
    def do_GET(self):
        self._dispatch()

    def do_POST(self):
        self._dispatch()

    def _dispatch(self):
        st = self.server.state
        cfg = st.cfg
        body = self._read_body() if self.command == "POST" else b""
        path = self.path.split("?", 1)[0]
        self.faults = {}
        if path.startswith("/_sim/"):
            return self.control(path, body)
        with st.lock:
            st.stats["requests"] += 1
            st.stats["by_path"][path] = st.stats["by_path"].get(path, 0) + 1
        faults = parse_fault_header(self.headers.get("X-Sim-Fault"))
        # global, reproducible random faults
        ident = "%s %s %s" % (self.command, path, hashlib.sha1(body).hexdigest())
        with st.lock:
            n = st.occurrences.get(ident, 0) + 1
            st.occurrences[ident] = n
        for kind, rate in cfg.fault_rates.items():
            if rate > 0 and kind not in faults and draw(cfg.fault_seed, kind, ident, n) < rate:
                faults[kind] = None
        if n == 1:
            # --fault-first: a reproducible fault on the first of each distinct request, so a test can count on a retry
            for kind, pattern in cfg.fault_first:
                if kind not in faults and pattern.search("%s %s" % (self.command, path)):
                    faults[kind] = None
        self.faults = faults
        lat = cfg.latency_ms
        if "latency" in faults:
            try:
                lat = int(faults["latency"] or 500)
            except ValueError:
                lat = 500
        if lat > 0:
            time.sleep(lat / 1000.0)
        if "reset" in faults:
            self.server.state_note("reset")
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if "5xx" in faults or "fail" in faults:
            code = faults.get("5xx") or "503"
            code = int(code) if code.isdigit() and 500 <= int(code) <= 599 else 503
            self.server.state_note("5xx")
            self.faults = {}
            return self.send(code, "<html><body><h1>%d Service Unavailable</h1></body></html>" % code,
                             "text/html; charset=utf-8")
        if "429" in faults:
            ra = faults.get("429") or str(cfg.retry_after)
            self.server.state_note("429")
            self.faults = {}
            return self.send_json(429, {"message": "Too many requests"}, headers={"Retry-After": ra})
        try:
            low = path.lower()
            if low.startswith(cfg.reports_base.lower() + "/"):
                return self.realpage_rest(path[len(cfg.reports_base):], body)
            if low.rstrip("/") == cfg.rpx_path.lower():
                return rpx.handle(self, body)
            if low.startswith(cfg.yardi_base.lower() + "/"):
                return yardi.handle(self, path[len(cfg.yardi_base) + 1:], body)
            self.send_json(404, {"message": "Not found: %s" % path})
        except BrokenPipeError:
            pass

    # ------------------------------------------------------------------ control endpoints
    def control(self, path, body):
        st = self.server.state
        if path == "/_sim/health":
            return self.send_json(200, {"ok": True, "as_of": st.world.as_of.isoformat(), "seed": st.world.seed})
        if path == "/_sim/token":
            return self.send(200, new_token() + "\n", "text/plain; charset=utf-8")
        if path == "/_sim/stats":
            with st.lock:
                return self.send_json(200, st.stats)
        if path == "/_sim/truth":
            if st.truth_path:
                with open(st.truth_path, "rb") as f:
                    return self.send(200, f.read())
            return self.send_json(404, {"message": "no truth file"})
        if path == "/_sim/config":
            return self.send_json(200, st.cfg.public())
        if path == "/_sim/advance":
            # The property date moves forward with the day's churn (clock.py). Call it between runs: a request
            # served meanwhile could mix two days.
            from urllib.parse import parse_qs, urlparse
            from .clock import advance
            days = int((parse_qs(urlparse(self.path).query).get("days") or ["1"])[0])
            with st.lock:
                churn = advance(st.world, days)
            return self.send_json(200, {"as_of": st.world.as_of.isoformat(), "churn": churn})
        return self.send_json(404, {"message": "unknown control endpoint"})

    # ------------------------------------------------------------------ RealPage Reporting REST
    def check_token(self):
        st = self.server.state
        cfg = st.cfg
        auth = self.headers.get("Authorization") or ""
        m = re.match(r"\s*Bearer\s+(\S+)\s*$", auth, re.I)
        reason = None
        if "token-expired" in self.faults or "expired-token" in self.faults:
            reason = "The access token expired"
        elif not m:
            reason = "Missing bearer token"
        else:
            tok = m.group(1)
            if not tok.startswith(cfg.token_prefix):
                reason = "Invalid access token"
            elif tok.startswith(cfg.token_prefix + "expired"):
                reason = "The access token expired"
            else:
                with st.lock:
                    cnt, first = st.token_uses.get(tok, (0, time.time()))
                    cnt += 1
                    st.token_uses[tok] = (cnt, first)
                if cfg.token_max_requests and cnt > cfg.token_max_requests:
                    reason = "The access token expired"
                elif cfg.token_ttl_seconds and time.time() - first > cfg.token_ttl_seconds:
                    reason = "The access token expired"
        if reason:
            self.server.state_note("401")
            self.faults = {}
            self.send_json(401, {"error": "invalid_token", "error_description": reason},
                           headers={"WWW-Authenticate": 'Bearer error="invalid_token", error_description="%s"' % reason})
            return False
        return True

    def realpage_rest(self, sub, body):
        st = self.server.state
        cfg = st.cfg
        if not self.check_token():
            return
        try:
            req = json.loads(body.decode("utf-8")) if body.strip() else {}
        except (ValueError, UnicodeDecodeError):
            return self.send_json(400, {"message": "Request body is not valid JSON"})
        m = re.match(r"^/reports/(\d+)/report-instances/?$", sub)
        if m and self.command == "POST":
            return self.create_instance(int(m.group(1)), req)
        if re.match(r"^/my/report-instances/?$", sub):
            return self.list_instances(req)
        m = re.match(r"^/reports/(\d+)/report-instances/([^/]+)/files/?$", sub)
        if m:
            return self.download(int(m.group(1)), m.group(2), req)
        return self.send_json(404, {"message": "Not found"})

    def create_instance(self, rid, req):
        st = self.server.state
        cfg = st.cfg
        # OneSite's answer for a report id the account does not offer (`--withhold-report` makes one).
        if rid not in R.REPORTS or rid in cfg.withheld_reports:
            return self.send_json(404, {"message": "Report %d was not found" % rid})
        key = R.REPORTS[rid][2]
        if str(req.get("reportKey", "")).upper() != key:
            return self.send_json(400, {"message": "Invalid reportKey for report %d" % rid})
        props = req.get("properties") or [d.get("propertyId") for d in req.get("propertyDetailList") or []]
        if not props:
            return self.send_json(400, {"message": "properties is required"})
        site = str(props[0])
        pkey = st.world.key_for("realpage", site)
        if pkey is None:
            return self.send_json(400, {"message": "Property %s is not available to this user" % site})
        if pkey in cfg.fail_properties:
            self.server.state_note("fail-property")
            return self.send_json(500, {"message": "An error has occurred."})
        params = {}
        for prm in req.get("parameters") or []:
            if isinstance(prm, dict) and prm.get("name"):
                params[str(prm["name"])] = prm.get("value")
        need_polls = cfg.ready_polls
        need_secs = cfg.ready_seconds
        if "slow-ready" in self.faults:
            v = self.faults["slow-ready"]
            need_polls = int(v) if v and v.isdigit() else max(need_polls, 5)
        with st.lock:
            st.next_instance += 1
            iid = str(st.next_instance)
            inst = {"id": iid, "report_id": rid, "site": site, "key": pkey, "params": params,
                    "created": time.time(), "polls": 0, "need_polls": need_polls, "need_secs": need_secs,
                    "file_id": None, "bytes": None, "format": req.get("reportFormat")}
            st.instances[iid] = inst
            st.instance_order.append(iid)
        return self.send_json(201, {"instanceId": iid, "reportInstanceId": iid, "status": 1})

    def _ready(self, inst):
        return inst["polls"] > inst["need_polls"] and time.time() - inst["created"] >= inst["need_secs"]

    def list_instances(self, req):
        st = self.server.state
        try:
            size = int(req.get("pageSize") or 0)
            page = max(1, int(req.get("pageNumber") or 1))
        except (TypeError, ValueError):
            size, page = 0, 1
        with st.lock:
            ids = list(reversed(st.instance_order))
            total = len(ids)
            if size > 0:
                ids = ids[(page - 1) * size: page * size]
            data = []
            for iid in ids:
                inst = st.instances[iid]
                if inst["file_id"] is None:
                    inst["polls"] += 1
                    if self._ready(inst):
                        st.next_file += 1
                        inst["file_id"] = str(st.next_file)
                        inst["completed"] = time.time()
                ready = inst["file_id"] is not None
                status = 3 if ready else (1 if inst["polls"] <= 1 and inst["need_polls"] > 1 else 2)
                name = R.REPORTS[inst["report_id"]][1]
                spec = st.world.spec(inst["key"])
                data.append({"sourceReportInstanceId": iid, "reportInstanceId": iid,
                             "reportId": inst["report_id"], "reportName": name,
                             "reportFileId": inst["file_id"], "status": status,
                             "statusName": {1: "Queued", 2: "Running", 3: "Completed"}[status],
                             "propertyName": spec[2], "properties": [inst["site"]],
                             "createdDate": iso_ts(inst["created"]),
                             "completedDate": iso_ts(inst["completed"]) if ready else None})
        return self.send_json(200, {"data": data, "totalCount": total})

    def download(self, rid, iid, req):
        st = self.server.state
        with st.lock:
            inst = st.instances.get(iid)
        if inst is None or inst["report_id"] != rid:
            return self.send_json(404, {"message": "Report instance not found"})
        if inst["file_id"] is None:
            return self.send_json(409, {"message": "Report is not ready"})
        fid = req.get("fileId") if isinstance(req, dict) else None
        if fid not in (None, "") and str(fid) != inst["file_id"]:
            return self.send_json(404, {"message": "File not found"})
        if inst["key"] in st.cfg.fail_properties:
            self.server.state_note("fail-property")
            return self.send_json(500, {"message": "An error has occurred."})
        if inst["bytes"] is None:
            w = st.world
            data = R.build_report(w.gen, w.get(inst["key"]), rid, inst["params"])
            # The form OneSite sends this report in at this property (forms.py): BIFF8, HTML, CSV, PDF or .xlsx.
            inst["bytes"], inst["ctype"], inst["ext"] = F.serve(w.quirks, inst["key"], R.REPORTS[rid][0],
                                                                R.REPORTS[rid][1], data)
        fname = "%s_%s.%s" % (R.REPORTS[rid][1].replace(" ", "").replace("/", "_"), iid, inst["ext"])
        return self.send(200, inst["bytes"], inst["ctype"],
                         headers={"Content-Disposition": 'attachment; filename="%s"' % fname})


def draw(seed, kind, ident, n):
    h = hashlib.sha256(("%s|%s|%s|%d" % (seed, kind, ident, n)).encode()).digest()
    return int.from_bytes(h[:8], "big") / 2.0 ** 64


def iso_ts(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + "Z"


def new_token():
    return "sim-token-" + uuid.uuid4().hex


def corrupt(body, ctype):
    """A broken variant of a response body (for the malformed fault)."""
    if "xml" in ctype:
        # drop the tail so tags stay unclosed, and add a bare ampersand
        cut = body[: max(1, int(len(body) * 0.6))]
        return cut + b"<broken & unclosed"
    if "json" in ctype:
        return body[: max(1, len(body) // 2)]
    # binary (xlsx): keep the zip local headers but destroy the central directory
    return body[: max(1, len(body) - 200)] + b"\x00" * 200


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, addr, state):
        self.state = state
        ThreadingHTTPServer.__init__(self, addr, Handler)

    def state_note(self, kind):
        st = self.state
        with st.lock:
            st.stats["faults"][kind] = st.stats["faults"].get(kind, 0) + 1
