"""Proxy per country without a browser: ``PROXY_URL`` templates and the
Accept-Language given to Chrome.  End to end: tests/browser/test_proxy_country.py."""
from __future__ import annotations

import pytest

from tagcrawl.engine.identity.emulation import country_locale, page_setup_commands, proxy_for


@pytest.mark.parametrize("template,country,expected", [
    ("http://{country}.proxy.test:3128", "DE", "http://de.proxy.test:3128"),
    ("http://{country}.proxy.test:3128", None, "http://proxy.test:3128"),
    ("{country}.gw.example:8000", None, "gw.example:8000"),
    ("http://gw.{country}.example:1", None, "http://gw.example:1"),
    ("http://exit-{country}.example:1", "fr", "http://exit-fr.example:1"),
    ("socks5://127.0.0.1:1080", "US", "socks5://127.0.0.1:1080"),
])
def test_proxy_for_substitutes_the_country(template, country, expected):
    assert proxy_for(template, True, country) == expected
    assert proxy_for(template, False, country) is None
    assert proxy_for(None, True, country) is None


def test_accept_language_is_given_to_chrome_without_q_values():
    """Chrome adds the q-values itself; passing them doubled them in the header."""
    assert country_locale("DE")["accept_language"] == "de-DE,de;q=0.9,en;q=0.8"
    [override] = [p for m, p in page_setup_commands("Mozilla/5.0 HeadlessChrome/1", "DE")
                  if m == "Network.setUserAgentOverride"]
    assert override == {"userAgent": "Mozilla/5.0 Chrome/1", "acceptLanguage": "de-DE,de,en"}
