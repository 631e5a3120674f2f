#!/usr/bin/env python3
"""Seed requests for the `http` fuzz target (Fuzz/FuzzHTTP): raw HTTP/1.1 requests to `ownerdash serve`, one file each.

    scripts/fuzz/http_seeds.py OUT_DIR

Most carry a session cookie signed with the fuzz target's own cookie key (FuzzHTTP.cookieKey; the HMAC-SHA256 of the
base64url JSON, as Serve's SignedCookie makes it) naming a session the target keeps, so mutations of them get past sign-in and reach every page and
endpoint; others carry bearer tokens (well-formed, badly signed), sign-in flow cookies, forms and hostile input.
"""
import base64
import hashlib
import hmac
import json
import os
import sys

KEY = b"ownerdash-fuzz-cookie-key-32byte"
FAR = 4102444800  # 2100-01-01: the seeds' sessions never expire


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sealed(fields: dict) -> str:
    payload = b64(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())
    return payload + "." + b64(hmac.new(KEY, payload.encode(), hashlib.sha256).digest())


# A session cookie names a session the server keeps; the target stores these two ids (FuzzHTTP.keepSessions).
OWNER = sealed({"i": "fuzz-session-owner", "x": FAR})
MANAGER = sealed({"i": "fuzz-session-manager", "x": FAR})
STRANGER = sealed({"i": "fuzz-session-none", "x": FAR})
FLOW = sealed({"s": "state1", "n": "nonce1", "v": "verifier1", "r": "/debtors", "x": FAR})


def jwt(header: dict, claims: dict, signature: bytes = b"\x01" * 256) -> str:
    return ".".join([b64(json.dumps(header).encode()), b64(json.dumps(claims).encode()), b64(signature)])


CLAIMS = {"iss": "http://127.0.0.1:1", "aud": "ownerdash", "sub": "s1", "email": "owner@example.com",
          "exp": FAR, "nbf": 0, "nonce": "nonce1"}
TOKENS = [
    jwt({"alg": "RS256", "kid": "rsa1", "typ": "JWT"}, CLAIMS),
    jwt({"alg": "ES256", "kid": "ec1"}, dict(CLAIMS, aud=["ownerdash", "other"], azp="ownerdash"), b"\x02" * 64),
    jwt({"alg": "none"}, CLAIMS, b""),
    jwt({"alg": "RS256", "kid": "unknown"}, CLAIMS),
    jwt({"alg": "RS256"}, {"email": 5, "exp": "soon"}),
]

GETS = [
    "/", "/?as_of=2026-11-20", "/lease-status", "/lease-status?property=yp&start=2026-10&months=2&include_inactive=true",
    "/debtors?property=yp", "/maintenance?property=yp&months=6&older_than=10", "/expenses?property=yp&start=2026-09&months=3",
    "/runs", "/runs?limit=5", "/runs/20261120T020000Z-ab12", "/audit", "/healthz",
    "/api/v2/properties", "/api/v2/portfolio/summary?as_of=2026-11-20",
    "/api/v2/properties/yp/occupancy?from=2026-10-01&to=2026-11-30", "/api/v2/properties/rp/exposure?as_of=2026-11-20",
    "/api/v2/properties/yp/pricing", "/api/v2/properties/rp/delinquency?top=3", "/api/v2/properties/yp/leasing-funnel",
    "/api/v2/properties/yp/activity?from=2026-01-01", "/api/v2/properties/yp/summary",
    "/api/v2/properties/yp/units/raw", "/api/v2/properties/yp/residents/raw",
    "/api/v2/properties/yp/lease-status?start=2026-10&months=2&include_inactive=true&as_of=2026-11-20",
    "/api/v2/properties/yp/debtors?min_debt=10.50", "/api/v2/properties/yp/rental-tracker?min_balance=1&min_months_behind=1&sort=name",
    "/api/v2/properties/yp/residents/t1/statement?from=2026-10&as_of=2026-11-20", "/api/v2/properties/yp/units/101/history",
    "/api/v2/properties/yp/maintenance?months=3&older_than=30", "/api/v2/properties/yp/expenses?start=2026-10&months=2",
    "/api/v2/runs?limit=3", "/api/v2/runs/20261120T020000Z-ab12", "/api/v2/audit/runs", "/api/v2/audit/runs/latest?exceptions_only=true",
    "/api/v2/properties/../../etc/passwd", "/api/v2/properties/yp%2f..%2fsummary", "/lease-status?start=2026-10;DROP%20TABLE%20x",
    "/api/v2/properties/yp%27%20OR%201=1/summary",
]


def request(method: str, target: str, headers: list, body: bytes = b"") -> bytes:
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1"] + headers
    if body or method == "POST":
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = []
    for target in GETS:
        seeds.append(request("GET", target, [f"Cookie: od_session={OWNER}"]))
    for target in GETS[:8] + GETS[12:16]:
        seeds.append(request("GET", target, [f"Cookie: theme=dark; od_session={MANAGER}", 'If-None-Match: W/"x", "y"']))
    for token in TOKENS:
        seeds.append(request("GET", "/api/v2/properties/yp/summary", [f"Authorization: Bearer {token}"]))
    seeds += [
        request("GET", "/api/v2/properties", ["Authorization: Basic dXNlcjpwYXNz"]),
        request("GET", "/", [f"Cookie: od_session={STRANGER}"]),
        request("GET", "/debtors?property=yp", []),
        request("GET", "/auth/signin?next=/lease-status%3Fproperty%3Dyp", []),
        request("GET", "/auth/callback?state=state1&code=abc", [f"Cookie: od_flow={FLOW}"]),
        request("GET", "/auth/callback?error=access_denied", []),
        request("POST", "/auth/signout", [f"Cookie: od_session={OWNER}"], b"csrf=csrf-owner"),
        request("POST", "/audit/exceptions/yp%3AL1%3Awater%3A2026-11/resolve", [f"Cookie: od_session={OWNER}"],
                b"csrf=csrf-owner&fix=posted+water&action=charge&note=%E2%9C%93"),
        request("POST", "/api/v2/audit/exceptions/yp:L1:rent:2026-11/reopen",
                [f"Cookie: od_session={OWNER}", "X-CSRF-Token: csrf-owner"], b"note=again"),
        request("POST", "/api/v2/audit/exceptions/rp:L9:rent:2026-11/resolve", [f"Cookie: od_session={MANAGER}"],
                b"csrf=csrf-manager&fix=x&action=waive"),
        request("DELETE", "/api/v2/properties/yp/summary", [f"Cookie: od_session={OWNER}"]),
        request("GET", "/api/v2/properties", ["Content-Length: 99999999", f"Cookie: od_session={OWNER}"]),
        request("GET", "/api/v2/properties", ["X-Padding: " + "p" * 9000]),
        b"GET /api/v2/properties HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        b"GET / HTTP/1.0\r\n\r\n",
        b"GET http://127.0.0.1/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ]
    for index, seed in enumerate(seeds):
        with open(os.path.join(out, f"{index:03d}.http"), "wb") as file:
            file.write(seed)


if __name__ == "__main__":
    main()
