"""Per-worker pool of browsers: checkout, health, recycling, clean-up.

One pool per process (gunicorn worker), created lazily after fork.  It holds
at most ``size`` browsers (default: one per gunicorn thread), hands each to
one crawl at a time, restarts a browser marked broken (crash, hang, deadline)
and recycles one after ``max_crawls`` crawls.  The ChromeDriver process-group
ids are written to a pid file per worker, so that gunicorn's master can kill
what a SIGKILLed worker left behind (``kill_recorded_browsers``).
"""
from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import tempfile
import threading
from pathlib import Path

from tagcrawl.engine.chrome.driver_factory import BrowserHandle, BrowserUnavailable, build_browser, kill_browser
from tagcrawl.core.settings import Settings

log = logging.getLogger(__name__)

PID_DIR = Path(os.environ.get("TAGCRAWL_RUNTIME_DIR") or tempfile.gettempdir()) / "tagcrawl-browsers"


class PoolExhausted(RuntimeError):
    """No browser became free within the checkout timeout."""


class BrowserPool:
    """Thread-safe pool of ``BrowserHandle``.

    Args:
        settings: the browser settings (``chrome_*``, ``webdriver_url``, ...).
        size: maximum browsers alive at once.
        max_crawls: crawls before a browser is replaced.
    """

    def __init__(self, settings: Settings, size: int, max_crawls: int = 50):
        self.settings = settings
        self.size = max(1, size)
        self.max_crawls = max_crawls
        self._idle: list[BrowserHandle] = []
        self._handles: list[BrowserHandle] = []
        self._dying: list[BrowserHandle] = []
        self._launching: set[int] = set()  # ChromeDriver pids of launches in progress
        self._slots = threading.BoundedSemaphore(self.size)
        self._lock = threading.Lock()
        self.pid = os.getpid()
        self.closed = False

    @contextlib.contextmanager
    def browser(self, timeout_s: float = 30):
        """Check out a browser for one crawl.

        Yields a healthy ``BrowserHandle``; on exit it goes back to the pool,
        or is killed when it was marked ``broken`` or reached ``max_crawls``.

        Raises:
            PoolExhausted: every browser stayed busy for ``timeout_s`` seconds.
            BrowserUnavailable: Chrome could not be started.
        """
        if not self._slots.acquire(timeout=timeout_s):
            raise PoolExhausted(f"no browser free within {timeout_s:.0f}s")
        handle = None
        try:
            handle = self._take()
            yield handle
        finally:
            if handle is not None:
                handle.crawls += 1
                self._give_back(handle)
            self._slots.release()

    def _take(self) -> BrowserHandle:
        with self._lock:
            handle = self._idle.pop() if self._idle else None
        if handle is not None and not self._healthy(handle):
            self._discard(handle)
            handle = None
        if handle is None:
            spawned: list[int] = []

            def on_spawn(pid: int) -> None:  # recorded before the launch is awaited
                with self._lock:
                    spawned.append(pid)
                    self._launching.add(pid)
                    self._record_pids()

            try:
                handle = build_browser(self.settings, on_spawn=on_spawn)
            finally:
                with self._lock:
                    self._launching.difference_update(spawned)
                    if handle is not None:
                        self._handles.append(handle)
                    self._record_pids()
        return handle

    @staticmethod
    def _healthy(handle: BrowserHandle) -> bool:
        if handle.broken:
            return False
        try:
            handle.driver.current_window_handle  # one round trip to ChromeDriver
            return True
        except Exception:
            return False

    def _give_back(self, handle: BrowserHandle) -> None:
        if handle.broken or handle.crawls >= self.max_crawls or self.closed:
            self._retire(handle)
            return
        with self._lock:
            self._idle.append(handle)

    def _discard(self, handle: BrowserHandle) -> None:
        kill_browser(handle, graceful=not handle.broken)
        with self._lock:
            if handle in self._handles:
                self._handles.remove(handle)
            if handle in self._dying:
                self._dying.remove(handle)
            self._record_pids()

    def _retire(self, handle: BrowserHandle) -> None:
        """Take ``handle`` out of service now; quit it on a background thread
        (quitting takes a moment).  Its pids stay recorded until it is gone."""
        with self._lock:
            if handle in self._handles:
                self._handles.remove(handle)
            self._dying.append(handle)
        threading.Thread(target=self._discard, args=(handle,), name="browser-retire", daemon=True).start()

    def _record_pids(self) -> None:
        """Write this worker's ChromeDriver group ids, launches in progress
        included (caller holds the lock).  Written to a temporary file then
        renamed: a worker killed mid-write leaves the previous list whole."""
        pids = [h.driver_pid for h in self._handles + self._dying if h.driver_pid] + sorted(self._launching)
        try:
            PID_DIR.mkdir(parents=True, exist_ok=True)
            path = PID_DIR / f"{os.getpid()}.pids"
            if pids:
                partial = path.with_suffix(".tmp")
                partial.write_text("\n".join(map(str, dict.fromkeys(pids))))
                os.replace(partial, path)
            else:
                path.unlink(missing_ok=True)
        except OSError:
            log.warning("could not record browser pids in %s", PID_DIR)

    def stats(self) -> dict:
        """The pool's state: ``{"alive": browsers, "idle": browsers waiting for a crawl}``.

        (Memory is measured from outside, by ``bench/crawl_bench.py``, on the worker's process tree.)
        """
        with self._lock:
            return {"alive": len(self._handles), "idle": len(self._idle)}

    def shutdown(self) -> None:
        """Quit every browser (worker exit).  Idempotent; never raises."""
        self.closed = True
        with self._lock:
            handles, self._handles, self._idle = list(self._handles + self._dying), [], []
            self._dying = []
        for handle in handles:
            kill_browser(handle)
        with self._lock:
            self._record_pids()


_pools: dict[tuple, BrowserPool] = {}
_pools_lock = threading.Lock()


def pool_size(settings: Settings) -> int:
    """Browsers per worker: ``pool_size`` (default 2), or with 0 one per gunicorn thread."""
    return settings.pool_size or settings.gunicorn_threads or 1


def _key(settings: Settings) -> tuple:
    """One pool per process and browser configuration (a different Chrome binary or
    ChromeDriver is another configuration: its browsers are not the same)."""
    return os.getpid(), settings.webdriver_url, settings.chrome_args, settings.chrome_binary, settings.chromedriver


def get_pool(settings: Settings) -> BrowserPool:
    """The pool of this process for this browser configuration, created on
    first use (after a fork, the child gets its own)."""
    key = _key(settings)
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None or pool.closed:
            pool = _pools[key] = BrowserPool(settings, pool_size(settings), settings.driver_max_crawls)
        return pool


def existing_pool(settings: Settings) -> BrowserPool | None:
    """This process's open pool for this configuration, or None: never creates
    one (the readiness check looks, it does not allocate)."""
    with _pools_lock:
        pool = _pools.get(_key(settings))
    return pool if pool is not None and not pool.closed else None


def shutdown_pools() -> None:
    """Quit the browsers of this process's pools (gunicorn ``worker_exit``, atexit)."""
    with _pools_lock:
        mine = [k for k in _pools if k[0] == os.getpid()]
        pools = [_pools.pop(k) for k in mine]
    for pool in pools:
        pool.shutdown()


def kill_recorded_browsers(worker_pid: int) -> int:
    """Kill the browsers a dead worker recorded (gunicorn master ``child_exit``).

    Returns the number of process groups signalled.
    """
    path = PID_DIR / f"{worker_pid}.pids"
    count = 0
    try:
        pids = [int(p) for p in path.read_text().split()]
    except (OSError, ValueError):
        return 0
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGKILL)
            count += 1
        except (ProcessLookupError, PermissionError):
            pass
    path.unlink(missing_ok=True)
    path.with_suffix(".tmp").unlink(missing_ok=True)
    return count


atexit.register(shutdown_pools)

__all__ = ["BrowserPool", "BrowserUnavailable", "PoolExhausted", "get_pool", "shutdown_pools",
           "kill_recorded_browsers"]
