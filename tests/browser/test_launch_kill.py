"""A gunicorn worker SIGKILLed while it launches a browser leaves nothing behind.

ChromeDriver is recorded (its process group, in the worker's pid file) as
soon as it exists, before the launch is awaited; the master's ``child_exit``
kills the recorded groups.  The moment of the kill is chosen without sleeping:
ChromeDriver and Chrome are started through wrapper scripts that announce
their pid on a FIFO and then ``exec`` the real program, so the test reads the
FIFO (the launch pauses until it does) and kills the worker at once.
"""
from __future__ import annotations

import os
import shutil
import signal
import stat
import threading

import psutil
import pytest

from tests.support.gunicorn_server import Gunicorn

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]

WRAPPER = """#!/bin/sh
# A version query is not the launch (tagcrawl reads Chrome's version first: stealth.launch_user_agent).
if [ "$1" = "--version" ]; then exec "{real}" "$@"; fi
# First start only: announce this pid (the one the real program keeps after exec).
if mkdir "{mark}" 2>/dev/null; then echo $$ > "{fifo}"; fi
exec "{real}" "$@"
"""


def _wrapper(tmp_path, name: str, real: str) -> tuple[str, str]:
    fifo = tmp_path / f"{name}.fifo"
    os.mkfifo(fifo)
    script = tmp_path / name
    script.write_text(WRAPPER.format(mark=tmp_path / f"{name}.started", fifo=fifo, real=real))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script), str(fifo)


def _read_pid(fifo: str) -> int:
    """Block until the wrapper announces its pid (the launch waits for this read)."""
    out: dict = {}
    reader = threading.Thread(target=lambda: out.setdefault("pid", int(open(fifo).read().strip())), daemon=True)
    reader.start()
    reader.join(120)
    assert "pid" in out, "the browser launch never started"
    return out["pid"]


def _group(pgid: int) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid:
                found.append(proc)
        except (ProcessLookupError, psutil.Error):
            pass
    return found


@pytest.mark.parametrize("moment", ["chromedriver", "chrome"])
def test_worker_killed_during_the_browser_launch_leaves_no_process(fixture_web, pg, tmp_path, moment):
    driver, driver_fifo = _wrapper(tmp_path, "chromedriver", shutil.which("chromedriver"))
    chrome, chrome_fifo = _wrapper(tmp_path, "chrome", shutil.which("chromium") or shutil.which("google-chrome"))
    url = pg.create_database("tagcrawl_launch_kill")
    env = {"DATABASE_URL": url, "TAGCRAWL_ALLOW_PRIVATE_TARGETS": "true", "TAGCRAWL_RUNTIME_DIR": str(tmp_path),
           "TAGCRAWL_CHROME_ARGS": " ".join(f"'{a}'" for a in fixture_web.chrome_args()),
           "TAGCRAWL_CHROMEDRIVER": driver, "TAGCRAWL_CHROME_BINARY": chrome}
    server = Gunicorn(env, workers=1, threads=2)
    server.flask("db", "upgrade")
    key = server.flask("keys", "create", "launch").strip().splitlines()[-1]
    server.start()
    try:
        threading.Thread(target=lambda: _post_quietly(server, key), daemon=True).start()
        driver_pid = _read_pid(driver_fifo)  # ChromeDriver exists; the worker is inside build_browser
        if moment == "chrome":
            _read_pid(chrome_fifo)  # Chrome is being started by ChromeDriver; no session yet
        worker = psutil.Process(driver_pid).parent()
        assert worker.pid != server.proc.pid  # a worker, not the master
        launched = _group(driver_pid)
        assert launched, "ChromeDriver's process group"
        os.kill(worker.pid, signal.SIGKILL)
        _gone, alive = psutil.wait_procs(launched, timeout=30)
        assert alive == []
        assert _group(driver_pid) == []  # nothing started meanwhile in the group either
        assert not list((tmp_path / "tagcrawl-browsers").glob(f"{worker.pid}.*"))  # the master cleaned up
    finally:
        for fifo in (driver_fifo, chrome_fifo):  # release a wrapper still waiting to announce itself
            fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            os.close(fd)
        server.stop()


def _post_quietly(server, key) -> None:
    try:
        server.post("/api/v1", {"url": "https://plain.example/", "session_id": None}, key, timeout_s=120)
    except Exception:  # the worker is killed under it
        pass
