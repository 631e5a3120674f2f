#!/usr/bin/python3
"""A real SMTP server for the e-mail notice tests: Debian's python3-aiosmtpd, STARTTLS required, AUTH after TLS only.

Usage: server.py CERT KEY OUT_DIR USER PASSWORD
Prints `listening on smtp://127.0.0.1:PORT` and serves until its stdin closes. Each message accepted is written to
OUT_DIR/NNNN.eml (the DATA as received) and OUT_DIR/NNNN.json (mail_from, rcpt_tos, tls: whether the session had
switched to TLS, auth_user). Recipients whose local part is
  refused...   are refused with 550 (a mailbox that does not exist),
  busy...      are refused with 451 (try again later) the first time they are seen, then accepted.
Run it with /usr/bin/python3: the package installs into the system Python, not into another python3 on PATH.
"""
import asyncio
import json
import os
import ssl
import sys
import threading

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

cert, key, out_dir, user, password = sys.argv[1:6]
os.makedirs(out_dir, exist_ok=True)
seen_busy = set()
count = 0


class Handler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@")[0].lower()
        if local.startswith("refused"):
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        if local.startswith("busy") and address not in seen_busy:
            seen_busy.add(address)
            return "451 4.3.0 <%s>: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        global count
        count += 1
        base = os.path.join(out_dir, "%04d" % count)
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": session.ssl is not None,
            "auth_user": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
        }
        with open(base + ".json.partial", "w") as f:
            json.dump(meta, f)
        os.rename(base + ".json.partial", base + ".json")
        return "250 Message accepted"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
        and auth_data.password.decode() == password
    return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)


async def main():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(Handler(), hostname="localhost", tls_context=context, require_starttls=True,
                     authenticator=authenticator, auth_required=True, auth_require_tls=True),
        host="127.0.0.1", port=0)
    port = server.sockets[0].getsockname()[1]
    print("listening on smtp://127.0.0.1:%d" % port, flush=True)
    stop = asyncio.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), loop.call_soon_threadsafe(stop.set)), daemon=True).start()
    await stop.wait()
    server.close()


asyncio.run(main())
