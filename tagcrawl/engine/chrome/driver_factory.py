"""Building a WebDriver: local headless Chrome, or a remote Selenium Grid node.

Only construction lives here; acting on pages is in ``session``/``consent``/
``blocking`` and lifecycle (reuse, restart, clean-up) in ``pool``.
"""
from __future__ import annotations

import functools
import json
import logging
import os
import shutil
import signal
import threading
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING

import psutil
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tagcrawl.engine.egress.chrome import CONTAINMENT_PREFS, chrome_args
from tagcrawl.core.settings import Settings
from tagcrawl.engine.identity.stealth import BrowserIdentity, browser_identity, launch_user_agent

if TYPE_CHECKING:  # spare.py builds a capture hub: imported for the annotation only
    from tagcrawl.engine.chrome.spare import Spare

log = logging.getLogger(__name__)

#: Switches every crawl browser gets.  The background-networking ones keep
#: Chrome's own traffic (updates, safe browsing, sync) out of the capture.
BASE_CHROME_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    # WebUIOmniboxPopup, WebUIOmniboxAimPopup: headless Chromium 156 loads two WebUI apps
    # (chrome://omnibox-popup.top-chrome/) in a renderer of their own for every window, and
    # every crawl's context is a new window: about 1 CPU-s per crawl (docs/benchmarks.md).
    "--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,AutofillServerCommunication,CertificateTransparencyComponentUpdater,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--metrics-recording-only",
    "--password-store=basic",
    "--window-size=1366,900",
    # navigator.webdriver false in every frame and worker (docs/stealth.md).
    "--disable-blink-features=AutomationControlled",
)

CHROME_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


class BrowserUnavailable(RuntimeError):
    """Chrome or ChromeDriver cannot be found or started."""


@dataclass
class BrowserHandle:
    """A running browser: the WebDriver, its DevTools URL and, for a local
    browser, the process id of ChromeDriver (leader of Chrome's process group).

    Attributes:
        crawls: crawls done (the pool recycles it at ``max_crawls``).
        broken: marked for restart (crash, hang, deadline).
        anchor: the driver's own window (``about:blank``), which outlives every
            crawl's context (``session.CrawlSession``), once known.
        spare: the next crawl's context, made ready in the background (``spare.py``), or None.
        spare_thread: the thread closing the last context and opening ``spare``, or None.
    """

    driver: webdriver.Remote
    cdp_url: str
    driver_pid: int | None = None
    crawls: int = 0
    broken: bool = False
    anchor: str | None = None
    spare: Spare | None = None
    spare_thread: threading.Thread | None = None

    @functools.cached_property
    def identity(self) -> BrowserIdentity | None:
        """What this browser presents to pages (``stealth.browser_identity``):
        read on first use, once per browser; None when it did not answer."""
        return browser_identity(self.driver)

    def chrome_pids(self) -> list[int]:
        """Pids of ChromeDriver and every Chrome process under it (local only)."""
        if not self.driver_pid:
            return []
        try:
            parent = psutil.Process(self.driver_pid)
            return [self.driver_pid] + [p.pid for p in parent.children(recursive=True)]
        except psutil.Error:
            return []



def find_chrome(settings: Settings) -> str | None:
    """``TAGCRAWL_CHROME_BINARY``, else the first Chrome/Chromium on PATH."""
    if settings.chrome_binary:
        return settings.chrome_binary
    return next((p for p in map(shutil.which, CHROME_CANDIDATES) if p), None)


def find_chromedriver(settings: Settings) -> str:
    """``TAGCRAWL_CHROMEDRIVER``, else ``chromedriver`` on PATH, else
    webdriver-manager (needs network; the fallback only)."""
    path = settings.chromedriver or shutil.which("chromedriver")
    if path:
        return path
    try:
        from webdriver_manager.chrome import ChromeDriverManager

        return ChromeDriverManager().install()
    except Exception as exc:  # offline, or no matching release
        raise BrowserUnavailable(
            "chromedriver not found: install chromium-driver or set TAGCRAWL_CHROMEDRIVER") from exc


def chrome_options(settings: Settings, user_agent: str | None = None) -> webdriver.ChromeOptions:
    """Options for a crawl browser: base switches plus ``TAGCRAWL_CHROME_ARGS``,
    pointed at the egress proxy, with the containment switches (``egress.chrome``).
    ``user_agent`` (``stealth.launch_user_agent``) becomes ``--user-agent``
    unless ``TAGCRAWL_CHROME_ARGS`` has its own."""
    options = webdriver.ChromeOptions()
    extra = ()
    if user_agent and not any(a.startswith("--user-agent=") for a in settings.chrome_args):
        extra = (f"--user-agent={user_agent}",)
    for arg in chrome_args(settings, (*BASE_CHROME_ARGS, *extra, *settings.chrome_args)):
        options.add_argument(arg)
    options.add_experimental_option("prefs", CONTAINMENT_PREFS)
    options.page_load_strategy = "normal"
    options.unhandled_prompt_behavior = "dismiss"
    options.set_capability("goog:loggingPrefs", {"browser": "OFF", "driver": "OFF"})
    return options


def local_cdp_url(driver: webdriver.Remote, timeout_s: float = 5) -> str:
    """Browser-level DevTools websocket URL of a local Chrome, from
    ``goog:chromeOptions.debuggerAddress`` and ``/json/version``."""
    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    with urllib.request.urlopen(f"http://{address}/json/version", timeout=timeout_s) as resp:
        return json.load(resp)["webSocketDebuggerUrl"]


class RecordingService(Service):
    """ChromeDriver in its own session (so its pid is its process group id),
    reported to ``on_spawn(pid)`` as soon as ``Popen`` returns: before the
    service is awaited and before Chrome is launched, so that a worker killed
    at any moment of the launch has already recorded the group to kill."""

    def __init__(self, path: str, on_spawn=None):
        super().__init__(path, popen_kw={"start_new_session": True})
        self.on_spawn = on_spawn

    def _start_process(self, path: str) -> None:
        super()._start_process(path)
        if self.on_spawn is not None:
            self.on_spawn(self.process.pid)


def build_browser(settings: Settings, on_spawn=None) -> BrowserHandle:
    """Start a browser for crawls.

    With ``WEBDRIVER_URL`` set, a session on that Selenium Grid (its DevTools
    URL is the ``se:cdp`` capability); otherwise a local headless Chrome whose
    ChromeDriver starts its own process group, so that ``kill_browser`` can
    remove every Chrome process even after a crash.  A local Chrome gets the
    user agent of its version without "Headless" as a switch (its proxy
    ``CONNECT`` requests carry it); a Grid node's version is not known before
    the session, so its Chrome keeps its own (docs/stealth.md).

    Args:
        settings: the browser settings (``chrome_*``, ``webdriver_url``, egress).
        on_spawn: ``fn(pid)``, called with ChromeDriver's pid (= its process
            group id) as soon as the process exists (local browsers only).
    Raises:
        BrowserUnavailable: no Chrome/ChromeDriver, or the session failed
            (a ChromeDriver already started is killed with its group).
    """
    binary = None if settings.webdriver_url else find_chrome(settings)
    options = chrome_options(settings, launch_user_agent(binary) if binary else None)
    try:
        if settings.webdriver_url:
            driver = webdriver.Remote(command_executor=settings.webdriver_url, options=options)
            cdp_url = driver.capabilities.get("se:cdp")
            if not cdp_url:
                driver.quit()
                raise BrowserUnavailable("the Selenium Grid did not offer a CDP endpoint (se:cdp)")
            return BrowserHandle(driver=driver, cdp_url=cdp_url)
        if binary is None:
            raise BrowserUnavailable("Chrome not found: install chromium or set TAGCRAWL_CHROME_BINARY")
        options.binary_location = binary
        service = RecordingService(find_chromedriver(settings), on_spawn)
        try:
            driver = webdriver.Chrome(options=options, service=service)
        except BaseException:
            _kill_group(getattr(getattr(service, "process", None), "pid", None))
            raise
    except BrowserUnavailable:
        raise
    except Exception as exc:
        # One line: ChromeDriver's text goes on with "Stacktrace:" and native frames (kept in the cause).
        detail = next((line.strip() for line in (getattr(exc, "msg", None) or str(exc)).splitlines() if line.strip()),
                      "")
        raise BrowserUnavailable(f"could not start Chrome: {exc.__class__.__name__}: {detail[:300]}") from exc
    handle = BrowserHandle(driver=driver, cdp_url="", driver_pid=service.process.pid)
    try:
        handle.cdp_url = local_cdp_url(driver)
    except Exception as exc:
        kill_browser(handle)
        raise BrowserUnavailable(f"Chrome DevTools endpoint unreachable: {exc}") from exc
    return handle


def _kill_group(pgid: int | None) -> None:
    if pgid:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def kill_browser(handle: BrowserHandle, graceful: bool = True) -> None:
    """Quit the session and make sure no process of it is left.

    ``graceful`` first tries WebDriver ``quit``; then every remaining process
    of ChromeDriver's group is sent SIGKILL.  A remote (Grid) browser has no
    local process to kill, so it is always quit: that ends the session on
    the Grid, frees its slot and fails any command still waiting on it.
    Never raises.
    """
    pids = handle.chrome_pids()
    if graceful or handle.driver_pid is None:
        try:
            handle.driver.quit()
        except Exception:
            pass
    if handle.driver_pid:
        try:
            os.killpg(handle.driver_pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in pids:
        try:
            psutil.Process(pid).wait(timeout=2)
        except (psutil.Error, psutil.TimeoutExpired, OSError):  # OSError: gone between the check and
            pass                                                 # psutil's pidfd_open (a race)
    if not graceful:
        try:
            handle.driver.service.stop()  # local only: closes pipes
        except Exception:
            pass
