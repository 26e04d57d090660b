"""Can this instance start or reach a browser?  The cheap check behind
``GET /health/ready`` (``web/views/health.py``); it never starts a browser.

- local Chrome: the Chrome binary (``TAGCRAWL_CHROME_BINARY``, else the first on
  PATH) and ChromeDriver (``TAGCRAWL_CHROMEDRIVER``, else ``chromedriver`` on
  PATH) both answer ``--version`` with exit status 0 within ``VERSION_TIMEOUT_S``;
- a Selenium Grid (``TAGCRAWL_WEBDRIVER_URL``): ``GET <url>/status`` answers
  ``{"value": {"ready": true}}`` within ``GRID_STATUS_TIMEOUT_S``.

The answer is cached per process and browser configuration for
``Settings.ready_cache_s`` seconds (default 10), so a load balancer polling
every second runs at most one check per 10 s; the cache is guarded by one
lock (a check runs under it: concurrent callers wait for its answer).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import threading
import time
import urllib.request

from tagcrawl.core.settings import Settings
from tagcrawl.engine.chrome.driver_factory import find_chrome

VERSION_TIMEOUT_S = 5.0
GRID_STATUS_TIMEOUT_S = 2.0
#: Bytes of a Grid's /status answer read, at most.
GRID_STATUS_MAX_BYTES = 64 * 1024
#: Configurations remembered, at most (a process has one or two; tests make more).
CACHE_MAX = 64

_lock = threading.Lock()
_cache: dict[tuple, tuple[float, str | None]] = {}


def _answers_version(path: str | None, what: str) -> str | None:
    """None when ``path --version`` exits 0 in time, else why not (one line)."""
    if not path:
        return f"{what} not found"
    try:
        done = subprocess.run([path, "--version"], capture_output=True, timeout=VERSION_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{what} {path} does not run: {exc.__class__.__name__}"
    return None if done.returncode == 0 else f"{what} {path} --version exited {done.returncode}"


def _grid_ready(url: str) -> str | None:
    """None when the Grid's ``/status`` says ready, else why not."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/status", timeout=GRID_STATUS_TIMEOUT_S) as resp:
            ready = json.loads(resp.read(GRID_STATUS_MAX_BYTES)).get("value", {}).get("ready")
    except (OSError, ValueError, AttributeError) as exc:
        return f"Selenium Grid unreachable: {exc.__class__.__name__}"
    return None if ready is True else "Selenium Grid not ready"


def check_browsers(settings: Settings) -> str | None:
    """Run the check now (uncached): None when a browser can be started or
    reached, else the reason (one line, no paths beyond the configured ones)."""
    if settings.webdriver_url:
        return _grid_ready(settings.webdriver_url)
    return (_answers_version(find_chrome(settings), "Chrome")
            or _answers_version(settings.chromedriver or shutil.which("chromedriver"), "ChromeDriver"))


def browsers_unavailable(settings: Settings, now: float | None = None) -> str | None:
    """``check_browsers``, cached for ``settings.ready_cache_s`` seconds per
    configuration (Chrome binary, ChromeDriver, Grid URL).  Thread-safe.

    Args:
        settings: the browser settings and ``ready_cache_s``.
        now: the monotonic time (seconds) to use, default ``time.monotonic()``.
    Returns:
        None (browsers can be had) or the reason they cannot.
    """
    key = (settings.chrome_binary, settings.chromedriver, settings.webdriver_url)
    with _lock:
        now = time.monotonic() if now is None else now
        cached = _cache.get(key)
        if cached is not None and now < cached[0]:
            return cached[1]
        answer = check_browsers(settings)
        if len(_cache) >= CACHE_MAX:
            _cache.clear()
        _cache[key] = (now + max(0.0, settings.ready_cache_s), answer)
        return answer
