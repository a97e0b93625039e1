#!/usr/bin/env python3
"""Loads an HTML report in headless Chromium over the DevTools protocol and prints when it painted what.

Usage: html-report-paint.py REPORT.html [RUNS]. For each run, a fresh Chromium (its own profile) opens the file;
a probe injected before the page's own code (DevTools scripts are not subject to the page's CSP) records, in ms
since navigation start: first-contentful-paint; `summary`, the frame painted after the summary section (verdict,
counts and What failed) was complete in the DOM; DOMContentLoaded; load; `ready`, when the page's script set
data-fmeval-ready; and `all`, when it set data-fmeval-rendered (every lazily rendered case in the DOM; absent on a
page that renders nothing lazily, where `load` is the end). Then `screenshot`: the wall time of
`chromium --headless --screenshot` (1400×1000), which waits for the load event, as a CI job or a script would.
Prints one line per run with the load average before it.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

PROBE = r"""
(function(){
  var t = {}; window.__fmevalPaint = t;
  new PerformanceObserver(function(list){ list.getEntries().forEach(function(e){ t[e.name] = e.startTime; }); })
    .observe({type: 'paint', buffered: true});
  function mark(name){ if (t[name] === undefined) { t[name] = performance.now(); } }
  function frame(){
    var s = document.getElementById('summary');
    if (t.summaryComplete !== undefined) { mark('summary'); }
    else if (s && (s.nextSibling || document.readyState !== 'loading')) { t.summaryComplete = performance.now(); }
    var root = document.documentElement;
    if (root && root.getAttribute('data-fmeval-ready') === '1') { mark('ready'); }
    if (root && root.getAttribute('data-fmeval-rendered') === '1') { mark('all'); }
    if (t.summary === undefined || t.all === undefined) { requestAnimationFrame(frame); }
  }
  requestAnimationFrame(frame);
  document.addEventListener('DOMContentLoaded', function(){ mark('domContentLoaded'); });
  window.addEventListener('load', function(){ mark('load'); });
})();
"""


class Browser:
    """Chromium with --remote-debugging-pipe: JSON messages, each ended by NUL, on fds 3 (in) and 4 (out)."""

    def __init__(self, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        self.log = tempfile.TemporaryFile()
        command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"]
        self.process = subprocess.Popen(
            ["sh", "-c", f'exec "$@" 3<&{to_child_r} 4>&{from_child_w}', "sh"] + command,
            pass_fds=(to_child_r, from_child_w), stdout=subprocess.DEVNULL, stderr=self.log)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                self.process.wait()
                raise RuntimeError(f"chromium closed the pipe: {self.errors()}")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def errors(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    def close(self):
        try:
            os.write(self.to_child, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.log.close()
        os.close(self.to_child)
        os.close(self.from_child)


def measure(report):
    with tempfile.TemporaryDirectory(prefix="fmeval-paint-", ignore_cleanup_errors=True) as profile:
        browser = Browser(profile)
        try:
            targets = browser.send("Target.getTargets")["targetInfos"]
            page = next(t for t in targets if t["type"] == "page")
            session = browser.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
            browser.send("Page.enable", session=session)
            browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE}, session=session)
            browser.send("Page.navigate", {"url": "file://" + os.path.abspath(report)}, session=session)
            deadline = time.time() + 180
            marks = {}
            while time.time() < deadline:
                time.sleep(0.25)
                value = browser.send("Runtime.evaluate", {"expression": "JSON.stringify(window.__fmevalPaint || {})",
                                                          "returnByValue": True}, session=session)
                marks = json.loads(value["result"].get("value") or "{}")
                lazy = browser.send("Runtime.evaluate", {
                    "expression": "!!document.getElementById('fmeval-lazy')", "returnByValue": True}, session=session)
                finished = "load" in marks and "summary" in marks
                if finished and (not lazy["result"].get("value") or "all" in marks):
                    break
            return marks
        finally:
            browser.close()


def screenshot(report):
    with tempfile.TemporaryDirectory(prefix="fmeval-shot-", ignore_cleanup_errors=True) as profile:
        start = time.time()
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        f"--user-data-dir={profile}", f"--screenshot={profile}/shot.png", "--window-size=1400,1000",
                        "file://" + os.path.abspath(report)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        return time.time() - start


def main():
    report = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    size = os.path.getsize(report) / 1e6
    for run in range(1, runs + 1):
        load = os.getloadavg()
        marks = measure(report)
        shot = screenshot(report)

        def seconds(name):
            return f"{marks[name] / 1000:.2f} s" if name in marks else "-"

        print(f"run {run}: {size:.2f} MB; first-contentful-paint {seconds('first-contentful-paint')}, "
              f"summary+failures painted {seconds('summary')}, DOMContentLoaded {seconds('domContentLoaded')}, "
              f"load {seconds('load')}, script ready {seconds('ready')}, all cases rendered {seconds('all')}, "
              f"screenshot {shot:.2f} s; "
              f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)


if __name__ == "__main__":
    main()
