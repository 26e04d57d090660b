"""What a crawl's window costs Chrome (issue 29: CPU seconds per page).

Every crawl's browser context is a new window.  Headless Chromium 156 loaded
two WebUI apps (``chrome://omnibox-popup.top-chrome/``), in a renderer of their
own, for each window: about 1 CPU-s per crawl, more than the page itself.  The
crawl browser's switches turn them off (``driver_factory.BASE_CHROME_ARGS``).
"""
from __future__ import annotations

import pytest

from tests.support.config import settings

pytestmark = pytest.mark.browser


def test_crawl_windows_load_no_browser_ui_pages(crawler, private_pool):
    from tagcrawl.engine.chrome.cdp import CDPConnection
    from tagcrawl.engine.chrome.pool import get_pool

    config = private_pool(POOL_SIZE=1)
    for _ in range(2):  # the second crawl takes the spare context (a window opened in the background)
        assert crawler("https://plain.example/", config=config).response["success"]
    with get_pool(settings(config)).browser() as handle:
        cdp = CDPConnection(handle.cdp_url)
        try:
            targets = cdp.call("Target.getTargets", {"filter": [{}]})["targetInfos"]
        finally:
            cdp.close()
    assert [t for t in targets if t["type"] == "page"], targets  # the anchor and the spare's page are listed
    assert [t["url"] for t in targets if t["type"] == "browser_ui" or t["url"].startswith("chrome://")] == []
