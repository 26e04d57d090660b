"""The readiness check's browser probe (``engine/chrome/availability.py``)
with small executables standing in for Chrome and ChromeDriver: what answers
``--version`` is available, the answer is cached ``READY_CACHE_S`` seconds per
configuration, and concurrent callers share one check.  With real Chrome and
the service: tests/browser/test_service_outcome.py."""
from __future__ import annotations

import threading
from pathlib import Path

from tagcrawl.engine.chrome.availability import browsers_unavailable, check_browsers

from tests.support.config import settings
from tests.support.gunicorn_server import free_port


def _program(path: Path, status: int, log: Path | None = None) -> str:
    record = f'echo run >> "{log}"\n' if log else ""
    path.write_text(f"#!/bin/sh\n{record}echo 'Fake 1.2.3.4'\nexit {status}\n")
    path.chmod(0o755)
    return str(path)


def test_binaries_that_answer_version_are_available(tmp_path):
    good = _program(tmp_path / "good", 0)
    assert check_browsers(settings({"CHROME_BINARY": good, "CHROMEDRIVER": good})) is None
    bad = _program(tmp_path / "bad", 1)
    assert check_browsers(settings({"CHROME_BINARY": bad, "CHROMEDRIVER": good})) == f"Chrome {bad} --version exited 1"
    missing = str(tmp_path / "missing")
    assert "does not run" in check_browsers(settings({"CHROME_BINARY": good, "CHROMEDRIVER": missing}))


def test_an_unreachable_grid_is_unavailable():
    reason = check_browsers(settings({"WEBDRIVER_URL": f"http://127.0.0.1:{free_port()}/wd/hub"}))
    assert reason.startswith("Selenium Grid unreachable")


def test_the_answer_is_cached_for_ready_cache_s(tmp_path):
    chrome = tmp_path / "chrome"
    driver = _program(tmp_path / "driver", 0)
    config = settings({"CHROME_BINARY": str(chrome), "CHROMEDRIVER": driver, "READY_CACHE_S": 10})
    _program(chrome, 1)
    assert browsers_unavailable(config, now=1000.0)
    _program(chrome, 0)  # fixed: the cached answer stands until it expires
    assert browsers_unavailable(config, now=1009.0)
    assert browsers_unavailable(config, now=1010.5) is None


def test_concurrent_callers_share_one_check(tmp_path):
    log = tmp_path / "runs"
    chrome = _program(tmp_path / "chrome", 0, log)
    config = settings({"CHROME_BINARY": chrome, "CHROMEDRIVER": _program(tmp_path / "driver", 0),
                       "READY_CACHE_S": 60})
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(browsers_unavailable(config))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [None] * 8
    assert log.read_text().splitlines() == ["run"]
