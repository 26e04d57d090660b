"""Blocking classifier: bot walls and CAPTCHA walls are reported, and the traps
(an invisible reCAPTCHA v3, an article that says "Access Denied") are not.
End to end in Chrome: tests/browser/test_blocking_browser.py."""
from __future__ import annotations

import pytest

from tagcrawl.engine.blocking import SHORT_PAGE_CHARS, classify


def probe(title="", html="", text="", length=None, captchas=(), fields=0):
    return {"title": title, "html": html or f"<html><body>{text}</body></html>", "text": text,
            "textLength": len(text) if length is None else length, "captchas": list(captchas), "fields": fields}


LONG = SHORT_PAGE_CHARS * 2
AKAMAI = "Access Denied You don't have permission. Reference #18.8f2e1002.1714557600.1a2b3c4d"


@pytest.mark.parametrize("status, page, expected", [
    (403, probe("Access Denied", text=AKAMAI), "accessDenied"),
    (200, probe("Access Denied", text=AKAMAI), "accessDenied"),  # bare page, Akamai title and reference
    (200, probe("Access Denied", text=AKAMAI, length=LONG), None),  # an article about it
    (200, probe("News", text="Sorry, you have been blocked", length=LONG), None),
    (403, probe("Attention Required! | Cloudflare", html="<div id='cf-error-details'>", text="x"), "accessDenied"),
    (200, probe(html="<iframe src='/_Incapsula_Resource?incident_id=1'>"), "accessDenied"),
    (200, probe(html="<iframe src='/_Incapsula_Resource?incident_id=1'>", length=LONG), None),
    (403, probe(html="<script>var dd={'host':'geo.captcha-delivery.com'}</script>",
                captchas=[{"kind": "datadome", "covering": True}]), "recaptcha"),
    (200, probe(html="<script src='https://js.datadome.co/tags.js'></script>", length=LONG), None),
    (403, probe("Access to this page has been denied.", html="<div id='px-captcha'></div>",
                captchas=[{"kind": "px-captcha", "covering": False}]), "recaptcha"),
    (200, probe("Sign in", captchas=[{"kind": "recaptcha", "covering": False}], fields=2), None),  # login form
    (200, probe("Article", length=LONG, captchas=[{"kind": "turnstile", "covering": True}]), "recaptcha"),
    (200, probe("Article", length=LONG, captchas=[{"kind": "recaptcha", "covering": False}]), None),
    (429, probe("429 Too Many Requests", text="Too Many Requests"), "accessDenied"),
    (503, probe("Shop", length=LONG), None),
    (404, probe("Not found", text="Not found"), None),
    (None, None, None),
])
def test_classify_combines_signals(status, page, expected):
    assert classify(status, page)[0] == expected
