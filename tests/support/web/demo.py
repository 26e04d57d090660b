"""`make demo`: start tagcrawl on the embedded SQLite default, crawl the bundled
demo shop through the HTTP API, print the report, stop everything.

The demo shop (https://shop.example/) and its vendor hosts are served offline
by the fixture web, exactly as in the tests; Chrome reaches them through
``TAGCRAWL_CHROME_ARGS`` (host-resolver rules).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from .server import FixtureWeb

PORT = int(os.environ.get("DEMO_PORT", "8765"))


def _wait_healthy(base: str, proc: subprocess.Popen, timeout_s: float = 30) -> None:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit("the service exited during start-up")
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as resp:
                if json.load(resp).get("status") == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        # Polling a starting server: retry pause between health probes.
        time.sleep(0.2)
    raise SystemExit("the service did not become healthy")


def main() -> int:
    web = FixtureWeb().start()
    workdir = tempfile.mkdtemp(prefix="tagcrawl-demo-")
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{workdir}/tagcrawl.db", PORT=str(PORT),
               TAGCRAWL_CHROME_ARGS=" ".join(f"'{a}'" for a in web.chrome_args()),
               TAGCRAWL_ALLOW_PRIVATE_TARGETS="true", TAGCRAWL_SCREENSHOT_DIR=os.path.join(workdir, "shots"),
               WEB_CONCURRENCY="1", GUNICORN_THREADS="2")
    flask = [sys.executable, "-m", "flask", "--app", "wsgi"]
    print("== migrating the SQLite database", flush=True)
    subprocess.run(flask + ["db", "upgrade"], env=env, check=True)
    key = subprocess.run(flask + ["keys", "create", "demo"], env=env, check=True, capture_output=True,
                         text=True).stdout.strip().splitlines()[-1]
    print(f"== starting the service on http://127.0.0.1:{PORT}", flush=True)
    service = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:tagcrawl.runtime.gunicorn_conf", "wsgi:app"],
                               env=env)
    try:
        base = f"http://127.0.0.1:{PORT}"
        _wait_healthy(base, service)
        body = {"url": "https://shop.example/", "session_id": None, "options": {"screenShots": True}}
        print(f"== POST {base}/api/v1 {json.dumps(body)}", flush=True)
        request = urllib.request.Request(base + "/api/v1", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "x-api-key": key})
        with urllib.request.urlopen(request, timeout=60) as resp:
            report = json.load(resp)
        print(json.dumps(report, indent=2), flush=True)
        ok = report.get("success") and report["button"]["consent_banner"] and \
            report["cookiesAfter"] > report["cookiesBefore"] and \
            sum(1 for p in report["marketingPixels"] if p.get("account_id")) >= 2
        print("== demo " + ("OK" if ok else "FAILED"), flush=True)
        return 0 if ok else 1
    finally:
        service.terminate()
        service.wait(timeout=30)
        web.stop()


if __name__ == "__main__":
    sys.exit(main())
