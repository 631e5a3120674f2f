#!/usr/bin/env python3
"""Screenshots of a local HTML page in headless Chromium, through the DevTools protocol over a pipe.

    page_screenshot.py PAGE.html OUT.png WIDTH [--mobile] [--print] [--check-sort] [--clip=TOP:HEIGHT | --element=ID]

Captures the full page (not just the first screen) at WIDTH CSS pixels, or with --clip only the band from
TOP to TOP+HEIGHT CSS pixels (to look at a part of a long page at full resolution); --print applies the
page's print stylesheet (as a browser's print preview would, on one long sheet); --element only the element
with that id (a property's section is `p-<key>`). Also reports, on stderr, every
network request the page makes besides itself (a self-contained page makes none), every script error, and
with --check-sort whether clicking the portfolio table's headings sorts it. Exit 1 on any of those problems.
Standard library only: Chromium talks NUL-separated JSON on fds 3 (commands in) and 4 (answers out).
"""
import base64
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    """One headless Chromium, driven over --remote-debugging-pipe."""

    def __init__(self):
        binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if not binary:
            sys.exit("page_screenshot: chromium is not installed")
        self.profile = tempfile.mkdtemp(prefix="ownerdash-chromium-")
        commands_read, self.commands = os.pipe()
        self.answers, answers_write = os.pipe()

        def pipe_on_fds_3_and_4():
            # Chromium reads commands on fd 3 and writes answers on fd 4; copy high first so neither clobbers the other.
            high_read, high_write = os.dup(commands_read), os.dup(answers_write)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--hide-scrollbars", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-sync", "--disable-component-update",
             "--font-render-hinting=none", f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=pipe_on_fds_3_and_4)
        os.close(commands_read)
        os.close(answers_write)
        self.next_id = 0
        self.buffer = b""
        self.events = []

    def send(self, method, params=None, session=None):
        """Sends a command and waits for its answer; events that arrive meanwhile are kept in self.events."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            answer = self.receive(timeout=60)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def receive(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self.answers, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method, session, timeout=30):
        """Waits for an event (or finds it among those already received)."""
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(index)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method}")
            self.events.append(self.receive(timeout=max(0.1, deadline - time.monotonic())))

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


SORT_CHECK = r"""
(function () {
  function order() {
    return Array.prototype.map.call(document.querySelectorAll("#portfolio-table tbody tr"),
      function (row) { return row.getAttribute("data-key"); });
  }
  function values(column) {
    return Array.prototype.map.call(document.querySelectorAll("#portfolio-table tbody tr"),
      function (row) { return row.cells[column].getAttribute("data-value"); });
  }
  var headers = document.querySelectorAll("#portfolio-table thead th");
  var result = { before: order(), columns: [] };
  for (var column = 0; column < headers.length; column++) {
    var button = headers[column].querySelector("button");
    button.click();
    var first = { direction: headers[column].getAttribute("aria-sort"), values: values(column) };
    button.click();
    var second = { direction: headers[column].getAttribute("aria-sort"), values: values(column) };
    result.columns.push({ heading: button.textContent, numeric: headers[column].getAttribute("data-type") === "number",
                          first: first, second: second });
  }
  return JSON.stringify(result);
})()
"""


def sorted_as(values, direction, numeric):
    """Whether the values are in the direction's order, with empty ('no data') values last."""
    present = [v for v in values if v not in (None, "")]
    if values[:len(present)] != present:
        return False
    keys = [float(v) if numeric else v.lower() for v in present]
    return keys == sorted(keys, reverse=(direction == "descending"))


def check_sort(report):
    problems = []
    for column in report["columns"]:
        for click in ("first", "second"):
            state = column[click]
            if state["direction"] not in ("ascending", "descending"):
                problems.append(f"{column['heading']}: aria-sort is {state['direction']!r} after a click")
            elif not sorted_as(state["values"], state["direction"], column["numeric"]):
                problems.append(f"{column['heading']}: not sorted {state['direction']}: {state['values']}")
        if column["first"]["direction"] == column["second"]["direction"]:
            problems.append(f"{column['heading']}: a second click did not reverse the order")
    return problems


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(arguments) != 3:
        sys.exit(__doc__)
    page, output, width = pathlib.Path(arguments[0]).resolve(), pathlib.Path(arguments[1]), int(arguments[2])
    mobile, sort, printed = "--mobile" in sys.argv, "--check-sort" in sys.argv, "--print" in sys.argv
    clip = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--clip=")), None)
    element = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--element=")), None)
    browser = Browser()
    problems = []
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            browser.send(f"{domain}.enable", session=session)
        metrics = {"width": width, "height": 900 if not mobile else 844, "deviceScaleFactor": 2 if mobile else 1,
                   "mobile": mobile}
        browser.send("Emulation.setDeviceMetricsOverride", metrics, session=session)
        if printed:
            browser.send("Emulation.setEmulatedMedia", {"media": "print"}, session=session)
        browser.send("Page.navigate", {"url": page.as_uri()}, session=session)
        browser.wait_for("Page.loadEventFired", session)
        time.sleep(0.3)
        layout = browser.send("Page.getLayoutMetrics", session=session)
        content = layout.get("cssContentSize") or layout["contentSize"]
        height = int(content["height"] + 0.5)
        browser.send("Emulation.setDeviceMetricsOverride", dict(metrics, height=height), session=session)
        capture = {"format": "png", "captureBeyondViewport": True}
        if element:
            where = browser.send("Runtime.evaluate", {"returnByValue": True, "expression":
                "(function (e) { if (!e) return null; var r = e.getBoundingClientRect();"
                " return [r.top + window.scrollY - 8, r.height + 16]; })"
                f"(document.getElementById({json.dumps(element)}))"}, session=session)["result"].get("value")
            if not where:
                sys.exit(f"page_screenshot: no element with id {element!r}")
            clip = f"{where[0]}:{where[1]}"
        if clip:
            top, band = (float(v) for v in clip.split(":"))
            capture["clip"] = {"x": 0, "y": top, "width": width, "height": min(band, height - top), "scale": 1}
        shot = browser.send("Page.captureScreenshot", capture, session=session)
        output.write_bytes(base64.b64decode(shot["data"]))
        print(f"{output}: {width} x {height} CSS px{' (phone)' if mobile else ''}", file=sys.stderr)
        if int(content["width"] + 0.5) > width:
            problems.append(f"the page is {content['width']:.0f} px wide at a {width} px viewport (sideways scrolling)")
        if sort:
            answer = browser.send("Runtime.evaluate", {"expression": SORT_CHECK, "returnByValue": True}, session=session)
            report = json.loads(answer["result"]["value"])
            sort_problems = check_sort(report)
            problems += sort_problems
            if not sort_problems:
                print(f"sorting: {len(report['columns'])} columns sort both ways, no data last", file=sys.stderr)
    finally:
        for event in browser.events:
            if event.get("method") == "Network.requestWillBeSent":
                url = event["params"]["request"]["url"]
                if url != page.as_uri():
                    problems.append(f"the page requested {url}")
            if event.get("method") == "Runtime.exceptionThrown":
                details = event["params"]["exceptionDetails"]
                problems.append(f"script error: {details.get('exception', {}).get('description') or details.get('text')}")
        browser.close()
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
