"""The SSRF guard against Chrome's own URL parser: for every URL of
tests/unit/test_netguard.py, Chrome finds the same host as the guard, or the
guard refuses the URL."""
from __future__ import annotations

import ipaddress

import pytest

from tagcrawl.core.netguard import url_refusal
from tests.support.config import settings
from tests.unit.test_netguard import ALLOWED, REFUSED


def _same_host(ours: str, chrome: str) -> bool:
    chrome = chrome.strip("[]").rstrip(".")
    try:
        return ipaddress.ip_address(ours) == ipaddress.ip_address(chrome)
    except ValueError:
        return ours == chrome


@pytest.mark.browser
def test_the_guard_reads_every_url_like_chrome(private_pool):
    """No parser differential: for each URL above, Chrome's own URL parser
    (``new URL``) finds the same host as the guard, or the guard refuses it."""
    from tagcrawl.engine.chrome.pool import get_pool
    from tagcrawl.core.netguard import scheme_and_host

    urls = list(REFUSED) + ALLOWED
    # A pool of its own: a shared pool's browser may be left on a window another test's crawl closed.
    with get_pool(settings(private_pool(POOL_SIZE=1))).browser() as handle:
        parsed = handle.driver.execute_script(
            "return arguments[0].map(u => { try { const x = new URL(u); return [x.protocol, x.hostname]; }"
            " catch (e) { return null; } })", urls)
    for url, chrome in zip(urls, parsed):
        if chrome is None or chrome[0] not in ("http:", "https:"):
            assert url_refusal(url) is not None, (url, chrome)
            continue
        try:
            _scheme, ours = scheme_and_host(url)
        except ValueError:
            ours = None
        if ours is None or not _same_host(ours, chrome[1]):
            assert url_refusal(url) is not None, (url, chrome, ours)
