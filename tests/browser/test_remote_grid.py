"""Crawls on a real Selenium Grid (``WEBDRIVER_URL``): capture, isolation,
consent, cookies, screenshots and the request guard, all through the Grid's
WebDriver and its CDP proxy (``se:cdp``).

The Grid is the Selenium 4 standalone server from the npm package
``@nightwatch/selenium-server`` (``make system-grid`` installs it into
``.venv/grid``), started here on loopback with ChromeDriver from PATH.  The
jar is taken from ``TAGCRAWL_SELENIUM_JAR``, else from ``.venv/grid``; without
it (or without Java) these tests are skipped, or fail under
``TAGCRAWL_REQUIRE_ALL=1``.  The Grid's Chrome joins the fixture web through
the same ``CHROME_ARGS`` (host-resolver rules), sent in the capabilities.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import urllib.request
import uuid
from pathlib import Path

import pytest

from tagcrawl import create_app
from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.collectors import standard
from tagcrawl.engine.chrome.cdp import CDPConnection
from tagcrawl.engine.chrome.driver_factory import build_browser, kill_browser
from tagcrawl.engine.chrome.pool import get_pool
from tagcrawl.engine.chrome.session import CrawlSession
from tagcrawl.crawl.service import run_crawl
from tests.support.config import settings

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
JAR_GLOB = ".venv/grid/node_modules/@nightwatch/selenium-server/lib/selenium-server-*.jar"
PNG = b"\x89PNG\r\n\x1a\n"


def _missing(what: str):
    if os.environ.get("TAGCRAWL_REQUIRE_ALL") == "1":
        pytest.fail(f"{what} is required (TAGCRAWL_REQUIRE_ALL=1) but not installed; run `make system-grid`")
    pytest.skip(f"{what} not installed (make system-grid)")


def find_jar() -> Path | None:
    """``TAGCRAWL_SELENIUM_JAR``, else the newest jar under ``.venv/grid``."""
    if os.environ.get("TAGCRAWL_SELENIUM_JAR"):
        return Path(os.environ["TAGCRAWL_SELENIUM_JAR"])
    jars = sorted(ROOT.glob(JAR_GLOB), key=lambda p: [int(x) for x in p.stem.rsplit("-", 1)[1].split(".")])
    return jars[-1] if jars else None


class Grid:
    """A Selenium standalone server (Grid with one local node) on loopback."""

    def __init__(self, jar: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.output: list[str] = []
        self.started = threading.Event()
        self.process = subprocess.Popen(
            ["java", "-jar", str(jar), "standalone", "--host", "127.0.0.1", "--port", str(self.port),
             "--selenium-manager", "false", "--max-sessions", "2", "--override-max-sessions", "true"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
            env=dict(os.environ, SE_OFFLINE="true"))
        threading.Thread(target=self._read, daemon=True, name="grid-output").start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.output.append(line.rstrip())
            if "Started Selenium" in line:
                self.started.set()
        self.started.set()  # exited: wake the waiter

    def wait_ready(self, timeout_s: float = 90) -> None:
        """Wait for the "Started Selenium" line, then for ``/status`` ready
        (a bounded readiness poll: the node may register just after)."""
        if not self.started.wait(timeout_s) or self.process.poll() is not None:
            raise RuntimeError("Selenium Grid did not start:\n" + "\n".join(self.output[-30:]))
        pause = threading.Event()
        for _ in range(50):
            if self.status()["ready"]:
                return
            pause.wait(0.2)
        raise RuntimeError("Selenium Grid never became ready:\n" + "\n".join(self.output[-30:]))

    def status(self) -> dict:
        with urllib.request.urlopen(self.url + "/status", timeout=5) as resp:
            return json.load(resp)["value"]

    def sessions(self) -> int:
        """Sessions running on the Grid now."""
        return sum(1 for node in self.status()["nodes"] for slot in node["slots"] if slot.get("session"))

    def stop(self) -> None:
        """Stop the server and whatever it started (its own process group)."""
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            self.process.wait()
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # ChromeDrivers left behind, if any
        except ProcessLookupError:
            pass
        self.process.wait()


@pytest.fixture(scope="session")
def grid():
    jar = find_jar()
    if jar is None or not jar.is_file():
        _missing("the Selenium server jar")
    if not shutil.which("java"):
        _missing("Java")
    if not shutil.which("chromedriver") or not (shutil.which("chromium") or shutil.which("google-chrome")):
        _missing("Chromium/ChromeDriver")
    server = Grid(jar)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def grid_app(grid, fixture_web, tmp_path_factory):
    """The app crawling on the Grid (guard off, as for the other e2e tests).
    The pool's one browser is started here, so that the first crawl's
    deadline does not include the Grid session start on a loaded CI machine."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True, "WEBDRIVER_URL": grid.url,
                      "CHROME_ARGS": fixture_web.chrome_args(), "ALLOW_PRIVATE_TARGETS": True, "QUIET_MS": 400,
                      "SCREENSHOT_DIR": str(tmp_path_factory.mktemp("grid-shots")), "POOL_SIZE": 1,
                      "CRAWL_TIMEOUT_S": 60})
    with get_pool(settings(app.config)).browser():
        pass
    yield app
    get_pool(settings(app.config)).shutdown()
    assert grid.sessions() == 0  # every Grid session was ended


@pytest.fixture
def config(grid_app):
    return grid_app.config


def crawl(config, url, **options):
    return run_crawl(settings(config), {"url": url, "session_id": None, "options": options}).response


def test_crawl_on_the_grid_reports_pixels_consent_cookies_and_screenshots(grid_app, config, grid):
    report = crawl(config, "https://shop.example/?grid", screenShots=True)
    assert report["success"] is True, report
    assert report["button"] == {"button_text": "Accept All Cookies", "consent_banner": True, "error_message": None}
    assert {"1234567890123456", "G-DEMO12345X", "AW-987654321"} <= {p["account_id"] for p in report["marketingPixels"]}
    assert report["cookiesAfter"] > report["cookiesBefore"]
    client = grid_app.test_client()
    shots = [client.get(url) for url in report["screenShotUrls"].values()]
    assert [(r.status_code, r.mimetype, r.data[:8]) for r in shots] == [(200, "image/png", PNG)] * 2
    assert shots[0].data != shots[1].data
    # The browser is a Grid session, driven over the Grid's CDP proxy (se:cdp),
    # which leads to Chrome's browser-level endpoint: page-level endpoints
    # answer "Not allowed" to Target.getBrowserContexts.
    assert grid.sessions() == 1
    with get_pool(settings(config)).browser() as handle:
        assert handle.driver_pid is None
        assert handle.cdp_url.startswith(f"ws://127.0.0.1:{grid.port}/session/")
        cdp = CDPConnection(handle.cdp_url)
        try:
            assert "defaultBrowserContextId" in cdp.call("Target.getBrowserContexts")
        finally:
            cdp.close()


def test_each_crawl_on_the_grid_gets_a_fresh_browser_context(config, grid, fixture_web):
    first = crawl(config, "https://grid.example/?visit=1")
    second = crawl(config, "https://grid.example/?visit=2")
    assert first["success"] and second["success"]
    assert first["cookiesBefore"] == second["cookiesBefore"] == 1  # only this visit's own cookie
    with fixture_web.lock:
        [page] = [e for e in fixture_web.log if e["host"] == "grid.example" and e["query"] == "visit=2"]
    assert "Cookie" not in page["headers"]  # the first visit's cookie did not carry over
    assert get_pool(settings(config)).stats()["alive"] == 1 and grid.sessions() == 1  # same browser, new context


def test_capture_through_the_grid_carries_large_devtools_messages(config, fixture_web):
    """A 300 kB POST body (``Network.getRequestPostData``) passes the Grid's CDP proxy whole."""
    found = standard()
    capture = NetworkCapture(collectors=found)
    with get_pool(settings(config)).browser() as handle, CrawlSession(handle, capture) as session:
        session.driver.get("https://grid.example/?big")
        assert capture.wait_quiet(400, 8000)
        [post] = [r for r in found.requests.get_data(None) if r.method == "POST"]
    with fixture_web.lock:
        served = [e for e in fixture_web.log if e["method"] == "POST" and e["query"] == "load=big-post"]
    assert len(post.post_data) == len(served[-1]["body"]) > 300_000
    assert post.post_data.encode() == served[-1]["body"]


def test_request_guard_works_on_the_grid(config, fixture_web):
    guarded = dict(config, ALLOW_PRIVATE_TARGETS=False)
    probe = uuid.uuid4().hex
    target = f"http://169.254.169.254/latest/meta-data/?{probe}"
    report = crawl(guarded, f"https://plain.example/__fixture/redirect?to={target}")
    assert report["success"] is False
    assert "cloud metadata" in report["error"]["message"]
    with fixture_web.lock:
        assert [e["path"] for e in fixture_web.log if probe in e["query"]] == ["/__fixture/redirect"]


def test_a_broken_grid_browser_gives_its_slot_back(config, grid):
    """A browser marked broken (crash, deadline) is killed without a graceful
    quit; on a Grid that still has to end the session, or the slot stays taken."""
    before = grid.sessions()
    handle = build_browser(settings(config))
    assert handle.cdp_url.startswith(f"ws://127.0.0.1:{grid.port}/session/")
    assert grid.sessions() == before + 1
    handle.broken = True
    kill_browser(handle, graceful=False)
    assert grid.sessions() == before


def test_the_grid_browser_presents_as_a_regular_chrome(config, fixture_web, npm_packages):
    """Stealth on the Grid too: the switch travels in the capabilities, the Client
    Hints over the Grid's CDP proxy; BotD (npm, unmodified) sees no bot."""
    start = len(fixture_web.log)
    report = crawl(config, "https://stealth.example/?grid")
    assert report["success"] is True, report
    found = {}
    for where in ("page", "botd"):
        entry = fixture_web.wait_for(lambda e, w=where: e["path"] == f"/__report/{w}"
                                     and fixture_web.log.index(e) >= start, 20)
        found[where] = json.loads(entry["body"])
    assert found["botd"]["result"] == {"bot": False}
    assert found["page"]["webdriver"] is False and "Headless" not in found["page"]["userAgent"]
    assert "Google Chrome" in {b["brand"] for b in found["page"]["hints"]["brands"]}
