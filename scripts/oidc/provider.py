#!/usr/bin/env python3
"""An OpenID Connect provider stand-in for testing `ownerdash serve` sign-in (Python standard library; keys made and
tokens signed with the `openssl` command).

Serves, on 127.0.0.1 (an ephemeral port unless --port):
  /.well-known/openid-configuration   discovery (issuer = this server's base URL)
  /jwks                               the signing keys (RSA and P-256), kid per key
  /authorize                          GET: a login form (e-mail); POST: issues a code and redirects to redirect_uri
  /token                              authorization_code grant with PKCE (S256) and client authentication
  /end_session                        a "signed out" page
Test helpers:
  POST /rotate                        a new RSA signing key (new kid) published and used from now on; the oldest of
                                      more than two is dropped
  GET  /issue?email=..&kind=..        a token without the browser flow; kind: valid, es256, expired, not_yet_valid,
                                      wrong_aud, wrong_iss, alg_none, bad_signature, unknown_kid, no_email
                                      (optional nonce=, aud=)
  GET  /stats                         {"jwks_fetches": n, "token_requests": n}

Prints "listening on http://127.0.0.1:PORT" once ready; exits when its stdin closes (so a test that dies leaves no
process behind).
"""
import argparse
import base64
import hashlib
import html
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def openssl(*args, data: bytes = None) -> bytes:
    return subprocess.run(["openssl", *args], input=data, capture_output=True, check=True).stdout


def der_read(data: bytes, offset: int):
    """One DER TLV at offset: (tag, content, next offset)."""
    tag = data[offset]
    length = data[offset + 1]
    offset += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[offset:offset + count], "big")
        offset += count
    return tag, data[offset:offset + length], offset + length


class Key:
    """A signing key in a PEM file, with its JWK."""

    def __init__(self, directory: str, kind: str, kid: str):
        self.kind, self.kid = kind, kid
        self.path = os.path.join(directory, f"{kid}.pem")
        if kind == "RSA":
            openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", self.path)
        else:
            openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", self.path)
        spki = openssl("pkey", "-in", self.path, "-pubout", "-outform", "DER")
        _, body, _ = der_read(spki, 0)                 # SubjectPublicKeyInfo
        _, _, after_algorithm = der_read(body, 0)      # AlgorithmIdentifier
        _, bits, _ = der_read(body, after_algorithm)   # BIT STRING
        public = bits[1:]
        if kind == "RSA":
            _, sequence, _ = der_read(public, 0)
            _, n, next_offset = der_read(sequence, 0)
            _, e, _ = der_read(sequence, next_offset)
            self.jwk = {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
                        "n": b64url(n.lstrip(b"\x00")), "e": b64url(e)}
        else:
            self.jwk = {"kty": "EC", "use": "sig", "alg": "ES256", "kid": kid, "crv": "P-256",
                        "x": b64url(public[1:33]), "y": b64url(public[33:65])}

    def sign(self, signing_input: bytes) -> bytes:
        signature = openssl("dgst", "-sha256", "-sign", self.path, data=signing_input)
        if self.kind == "RSA":
            return signature
        _, sequence, _ = der_read(signature, 0)       # ECDSA-Sig-Value: r and s -> r || s, 32 bytes each
        _, r, next_offset = der_read(sequence, 0)
        _, s, _ = der_read(sequence, next_offset)
        return r.lstrip(b"\x00").rjust(32, b"\x00") + s.lstrip(b"\x00").rjust(32, b"\x00")


class Provider:
    def __init__(self, client_id: str, client_secret: str):
        self.client_id, self.client_secret = client_id, client_secret
        self.directory = tempfile.mkdtemp(prefix="oidc-provider-")
        self.lock = threading.Lock()
        self.generation = 1
        self.rsa_keys = [Key(self.directory, "RSA", "rsa-1")]
        self.ec_key = Key(self.directory, "EC", "ec-1")
        self.codes = {}
        self.stats = {"jwks_fetches": 0, "token_requests": 0}
        self.issuer = ""

    def jwks(self):
        with self.lock:
            self.stats["jwks_fetches"] += 1
            return {"keys": [key.jwk for key in self.rsa_keys] + [self.ec_key.jwk]}

    def rotate(self) -> str:
        with self.lock:
            self.generation += 1
            self.rsa_keys.append(Key(self.directory, "RSA", f"rsa-{self.generation}"))
            if len(self.rsa_keys) > 2:
                self.rsa_keys.pop(0)
            return self.rsa_keys[-1].kid

    def token(self, email, nonce=None, kind="valid", audience=None):
        now = int(time.time())
        claims = {"iss": self.issuer, "sub": "sub-" + hashlib.sha256(email.encode()).hexdigest()[:12],
                  "aud": audience or self.client_id, "email": email, "email_verified": True,
                  "iat": now, "exp": now + 600, "token_use": "id"}
        if nonce:
            claims["nonce"] = nonce
        if kind == "expired":
            claims["iat"], claims["exp"] = now - 7200, now - 3600
        elif kind == "not_yet_valid":
            claims["nbf"] = now + 3600
        elif kind == "wrong_aud":
            claims["aud"] = "someone-else"
        elif kind == "wrong_iss":
            claims["iss"] = "https://evil.example.com"
        elif kind == "no_email":
            del claims["email"]
        with self.lock:
            key = self.ec_key if kind == "es256" else self.rsa_keys[-1]
        header = {"typ": "JWT", "alg": "ES256" if key.kind == "EC" else "RS256", "kid": key.kid}
        if kind == "unknown_kid":
            header["kid"] = "never-published"
        if kind == "alg_none":
            header = {"typ": "JWT", "alg": "none"}
        signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
        if kind == "alg_none":
            return signing_input.decode() + "."
        signature = key.sign(signing_input)
        if kind == "bad_signature":
            signature = bytes([signature[0] ^ 0x01]) + signature[1:]
        return signing_input.decode() + "." + b64url(signature)


def make_handler(provider: Provider):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send(self, status, body, content_type="application/json", headers=()):
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def form(self):
            length = int(self.headers.get("Content-Length") or 0)
            return dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/.well-known/openid-configuration":
                base = provider.issuer
                self.send(200, json.dumps({
                    "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                    "jwks_uri": base + "/jwks", "end_session_endpoint": base + "/end_session",
                    "response_types_supported": ["code"], "subject_types_supported": ["public"],
                    "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                    "code_challenge_methods_supported": ["S256"]}))
            elif url.path == "/jwks":
                self.send(200, json.dumps(provider.jwks()))
            elif url.path == "/authorize":
                if query.get("response_type") != "code" or query.get("client_id") != provider.client_id \
                        or query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
                    self.send(400, "bad authorization request", "text/plain")
                    return
                hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                                 for k, v in query.items())
                self.send(200, f"""<!DOCTYPE html><html><head><title>Sign in</title></head><body>
<h1>Test provider sign-in</h1><form method="post" action="/authorize">{hidden}
<label>E-mail <input type="email" name="email" id="email"></label>
<button type="submit" id="login">Sign in</button></form></body></html>""", "text/html; charset=utf-8")
            elif url.path == "/issue":
                self.send(200, provider.token(query.get("email", "owner@example.com"), query.get("nonce"),
                                              query.get("kind", "valid"), query.get("aud")), "text/plain")
            elif url.path == "/stats":
                with provider.lock:
                    self.send(200, json.dumps(provider.stats))
            elif url.path == "/end_session":
                self.send(200, "<!DOCTYPE html><html><body><p id='signed-out'>Signed out.</p></body></html>",
                          "text/html; charset=utf-8")
            else:
                self.send(404, "not found", "text/plain")

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/authorize":
                fields = self.form()
                code = secrets.token_urlsafe(24)
                with provider.lock:
                    provider.codes[code] = fields
                target = fields["redirect_uri"] + ("&" if "?" in fields["redirect_uri"] else "?") + urllib.parse.urlencode(
                    {"code": code, "state": fields.get("state", "")})
                self.send(302, "", "text/plain", [("Location", target)])
            elif url.path == "/token":
                with provider.lock:
                    provider.stats["token_requests"] += 1
                fields = self.form()
                client_id, client_secret = fields.get("client_id"), fields.get("client_secret")
                authorization = self.headers.get("Authorization", "")
                if authorization.startswith("Basic "):
                    decoded = base64.b64decode(authorization[6:]).decode()
                    client_id, _, client_secret = decoded.partition(":")
                    client_id, client_secret = urllib.parse.unquote(client_id), urllib.parse.unquote(client_secret)
                if client_id != provider.client_id or client_secret != provider.client_secret:
                    self.send(401, json.dumps({"error": "invalid_client"}))
                    return
                with provider.lock:
                    grant = provider.codes.pop(fields.get("code", ""), None)   # a code is good once
                verifier = fields.get("code_verifier", "")
                if grant is None or fields.get("grant_type") != "authorization_code" \
                        or fields.get("redirect_uri") != grant.get("redirect_uri") \
                        or b64url(hashlib.sha256(verifier.encode()).digest()) != grant.get("code_challenge"):
                    self.send(400, json.dumps({"error": "invalid_grant"}))
                    return
                id_token = provider.token(grant.get("email", ""), grant.get("nonce"))
                self.send(200, json.dumps({"id_token": id_token, "access_token": secrets.token_urlsafe(16),
                                           "token_type": "Bearer", "expires_in": 600}))
            elif url.path == "/rotate":
                self.send(200, json.dumps({"kid": provider.rotate()}))
            else:
                self.send(404, "not found", "text/plain")

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--client-id", default="ownerdash")
    parser.add_argument("--client-secret", default="test-secret")
    arguments = parser.parse_args()
    provider = Provider(arguments.client_id, arguments.client_secret)
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), make_handler(provider))
    server.daemon_threads = True
    provider.issuer = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening on {provider.issuer}", flush=True)
    # Terminated rather than let go (a test's teardown): still remove the keys below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        sys.stdin.read()   # until the test closes our stdin (or dies)
        server.shutdown()
    finally:
        shutil.rmtree(provider.directory, ignore_errors=True)   # its private signing keys


if __name__ == "__main__":
    main()
