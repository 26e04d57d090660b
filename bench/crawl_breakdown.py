"""Where a crawl's time goes (issue 28): ``N`` in-process crawls of the tag-heavy page
(``https://tagheavy.example/``), medians per request and per phase.

Production settings in one process (no HTTP, no database): private targets refused,
the owned egress proxy on, the fixture web reached through the operator's host
mapping, one pooled browser, ``QUIET_MS`` 500.  Each crawl is timed from the bench
side by wrapping (in this process only; nothing of tagcrawl changes):

- ``CDPConnection.send``: every DevTools command's round trip; the Fetch pause of a
  paused request is ``Fetch.requestPaused`` arriving -> its ``Fetch.continueRequest``
  answered; target attach is ``Target.attachedToTarget`` arriving -> that session's
  ``Runtime.runIfWaitingForDebugger`` answered; the hooks' install is
  ``Page.addScriptToEvaluateOnNewDocument``'s round trip;
- ``NetworkCapture.on_event``: ``Network.responseReceived``'s ``timing`` of requests
  on a new connection (``connectStart..connectEnd``: the CONNECT through the egress
  proxy and the TLS handshake; ``sslStart..sslEnd``: TLS alone);
- ``Activity``: the quiet wait's length and what restarted or held it last (a request
  starting, by resource type; a waited-for answer; a JS timer coming due; other page
  activity: a new target, a hooks message);
- ``spare.open_context`` / ``close_context``: the next crawl's context, made in the
  background; ``checkout`` and ``browser`` are the crawl's own phases.

The page hooks' run time is measured apart: their script evaluated in a fresh
document of a bare Chrome (``performance.now()`` around it), ``--hooks-runs`` times.

Run: ``.venv/bin/python -m bench.crawl_breakdown [--crawls 12]``.  Prints Markdown;
writes bench/results/crawl_breakdown.json.  Bounds: ``--crawls`` <= 200.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import psutil

from bench.real_pages import _bare_driver
from tests.support.config import settings
from tests.support.web.server import FixtureWeb

PAGE = "https://tagheavy.example/"
MAX_CRAWLS = 200


class Recorder:
    """What the wrappers saw during one crawl (thread-safe; reset per crawl)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.paused: dict[str, float] = {}      # Fetch requestId -> arrival (monotonic s)
            self.pauses: list[float] = []            # ms
            self.attached: dict[str, float] = {}     # session -> arrival
            self.attaches: list[float] = []          # ms
            self.installs: list[float] = []          # addScriptToEvaluateOnNewDocument round trips, ms
            self.connects: list[float] = []          # connectEnd - connectStart, ms
            self.tls: list[float] = []               # sslEnd - sslStart, ms
            self.reused = 0
            self.quiet: list[tuple[float, str]] = []  # (ms, what restarted it last)
            self.events: list[tuple[float, str]] = []  # (new _last_activity, cause)
            self.opens: list[float] = []
            self.closes: list[float] = []


REC = Recorder()


def _instrument() -> None:
    from tagcrawl.engine.capture import activity as activity_mod
    from tagcrawl.engine.capture.hub import NetworkCapture
    from tagcrawl.engine.chrome import cdp as cdp_mod, session as session_mod, spare as spare_mod

    send = cdp_mod.CDPConnection.send

    def timed_send(self, method, params=None, session_id=None):
        started = time.monotonic()
        future = send(self, method, params, session_id)

        def done(_f):
            now = time.monotonic()
            with REC.lock:
                if method in ("Fetch.continueRequest", "Fetch.failRequest"):
                    arrived = REC.paused.pop((params or {}).get("requestId"), None)
                    if arrived is not None:
                        REC.pauses.append((now - arrived) * 1000)
                elif method == "Runtime.runIfWaitingForDebugger" and session_id in REC.attached:
                    REC.attaches.append((now - REC.attached.pop(session_id)) * 1000)
                elif method == "Page.addScriptToEvaluateOnNewDocument":
                    REC.installs.append((now - started) * 1000)
        future.add_done_callback(done)
        return future

    cdp_mod.CDPConnection.send = timed_send

    on_event = NetworkCapture.on_event

    def seen(self, method, params, session_id):
        now = time.monotonic()
        with REC.lock:
            if method == "Fetch.requestPaused":
                REC.paused[params.get("requestId")] = now
            elif method == "Target.attachedToTarget":
                REC.attached[params.get("sessionId")] = now
            elif method == "Network.responseReceived":
                response = params.get("response", {})
                timing = response.get("timing") or {}
                if response.get("connectionReused"):
                    REC.reused += 1
                elif timing.get("connectStart", -1) >= 0 and timing.get("connectEnd", -1) >= 0:
                    REC.connects.append(timing["connectEnd"] - timing["connectStart"])
                    if timing.get("sslStart", -1) >= 0:
                        REC.tls.append(timing["sslEnd"] - timing["sslStart"])
        return on_event(self, method, params, session_id)

    NetworkCapture.on_event = seen

    Activity = activity_mod.Activity

    def cause_of(name, describe):
        original = getattr(Activity, name)

        def wrapped(self, *args, **kwargs):
            with self.cond:
                before = self._last_activity
                result = original(self, *args, **kwargs)
                if self._last_activity != before:
                    with REC.lock:
                        REC.events.append((self._last_activity, describe(*args, **kwargs)))
                return result
        setattr(Activity, name, wrapped)

    cause_of("note_request", lambda rid, url, rtype, session, method="GET": f"request started ({rtype})")
    cause_of("note_finished", lambda rid: "waited-for answer")
    cause_of("note_timers", lambda key, due, late: "timers reported")
    cause_of("touch", lambda activity=True: "page activity (target, hooks)")

    wait_quiet = Activity.wait_quiet

    def timed_quiet(self, quiet_ms, cap_ms, deadline=None, since=None):
        started = time.monotonic()
        result = wait_quiet(self, quiet_ms, cap_ms, deadline, since)
        with self.cond:
            now = time.monotonic()
            came_due = [d for d in self._timers.values() if d <= now]
            last = max([self._last_activity, *came_due])
            if came_due and last in came_due and last > self._last_activity:
                cause = "JS timer came due"
            else:
                with REC.lock:
                    causes = [c for t, c in REC.events if t == self._last_activity]
                cause = causes[-1] if causes else "none"
            if last < started:
                cause += ", before the wait began"
        if since is None:  # the crawl's quiet wait (the flush passes ``since``)
            with REC.lock:
                REC.quiet.append(((now - started) * 1000, cause))
        return result

    Activity.wait_quiet = timed_quiet

    for name, store in (("open_context", "opens"), ("close_context", "closes")):
        original = getattr(spare_mod, name)

        def wrapped(*args, _original=original, _store=store, **kwargs):
            started = time.monotonic()
            try:
                return _original(*args, **kwargs)
            finally:
                with REC.lock:
                    getattr(REC, _store).append((time.monotonic() - started) * 1000)
        setattr(spare_mod, name, wrapped)
        setattr(session_mod, name, wrapped)


def _hooks_run_ms(web: FixtureWeb, runs: int) -> float:
    """Median ms of one evaluation of the page hooks' script in a fresh document."""
    from tagcrawl.engine.capture.hooks import PageHooks

    driver = _bare_driver(web)
    try:
        samples = []
        for _ in range(runs):
            driver.get("https://plain.example/")
            script = PageHooks.new(4000, 10500).script
            samples.append(driver.execute_script(
                "const t = performance.now(); (0, eval)(arguments[0]); return performance.now() - t;", script))
        return statistics.median(samples)
    finally:
        driver.quit()


def _med(values) -> float | None:
    values = list(values)
    return round(statistics.median(values), 1) if values else None


def crawls(web: FixtureWeb, workdir: str, count: int, guard: str) -> dict:
    """``count`` crawls (after two warm-ups) with ``FETCH_GUARD=guard``; medians."""
    from tagcrawl.crawl.service import run_crawl
    from tagcrawl.engine.chrome.pool import get_pool

    config = settings({"CHROME_ARGS": web.chrome_args() + [f"--tagcrawl-bench={guard}"],
                       "ALLOW_PRIVATE_TARGETS": False, "FETCH_GUARD": guard, "POOL_SIZE": 1,
                       "SCREENSHOT_DIR": str(Path(workdir) / "shots"), "QUIET_MS": 500})
    rows = []
    try:
        for i in range(count + 2):
            REC.reset()
            outcome = run_crawl(config, {"url": PAGE, "session_id": None, "options": None,
                                         "validationRules": None})
            assert outcome.response["success"] and len(outcome.response["marketingPixels"]) >= 3, outcome.response
            with REC.lock:
                row = {"phases": dict(outcome.timings.phases), "pauses": list(REC.pauses),
                       "attaches": list(REC.attaches), "installs": list(REC.installs),
                       "connects": list(REC.connects), "tls": list(REC.tls), "reused": REC.reused,
                       "quiet": list(REC.quiet), "requests": len(outcome.requests)}
            if i >= 2:
                rows.append(row)
    finally:
        get_pool(config).shutdown()
    quiet = [q for r in rows for q in r["quiet"][:1]]
    phases = sorted({k for r in rows for k in r["phases"]})
    return {
        "guard": guard, "crawls": count,
        "phases_ms": {k: _med(r["phases"].get(k, 0) for r in rows) for k in phases},
        "paused_per_crawl": _med(len(r["pauses"]) for r in rows),
        "pause_ms": _med(p for r in rows for p in r["pauses"]),
        "pause_total_ms": _med(sum(r["pauses"]) for r in rows),
        "attach_per_crawl": _med(len(r["attaches"]) for r in rows),
        "attach_ms": _med(a for r in rows for a in r["attaches"]),
        "hooks_install_ms": _med(a for r in rows for a in r["installs"]),
        "new_connections_per_crawl": _med(len(r["connects"]) for r in rows),
        "reused_per_crawl": _med(r["reused"] for r in rows),
        "connect_ms": _med(c for r in rows for c in r["connects"]),
        "tls_ms": _med(t for r in rows for t in r["tls"]),
        "requests_per_crawl": _med(r["requests"] for r in rows),
        "quiet_ms": _med(q[0] for q in quiet),
        "quiet_held_by": dict(Counter(q[1] for q in quiet).most_common()),
        "spare_open_ms": _med(REC.opens) if REC.opens else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crawls", type=int, default=12)
    parser.add_argument("--hooks-runs", type=int, default=20)
    args = parser.parse_args()
    if not 1 <= args.crawls <= MAX_CRAWLS or not 1 <= args.hooks_runs <= MAX_CRAWLS:
        parser.error(f"--crawls and --hooks-runs: 1 to {MAX_CRAWLS}")
    _instrument()
    web = FixtureWeb().start()
    workdir = tempfile.mkdtemp(prefix="tagcrawl-breakdown-")
    results: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                     "load_before": [round(x, 1) for x in psutil.getloadavg()]}
    try:
        results["runs"] = [crawls(web, workdir, args.crawls, guard) for guard in ("auto", "all")]
        results["hooks_run_ms"] = round(_hooks_run_ms(web, args.hooks_runs), 2)
    finally:
        web.stop()
    results["load_after"] = [round(x, 1) for x in psutil.getloadavg()]
    print(json.dumps(results, indent=2))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "crawl_breakdown.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
