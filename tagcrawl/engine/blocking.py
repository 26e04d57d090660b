"""Blocking detection: is the page a bot wall (``accessDenied``) or a
CAPTCHA wall (``recaptcha``)?

Signals are combined, never used alone: the main document's HTTP status
(403, 429, 503), the title and markers of known block pages (Akamai,
Cloudflare, Imperva/Incapsula, DataDome, PerimeterX), how much content the
page has, and a *visible, page-blocking* CAPTCHA (reCAPTCHA v2 challenge,
hCaptcha, Turnstile, DataDome, PerimeterX "press & hold").  Text alone never
makes a block: an article that says "Access Denied" is content, and the
invisible reCAPTCHA v3 badge on a contact form is not a wall.

A CAPTCHA blocks the page when it sits in an overlay covering at least half
of the viewport, or when the page has almost no content and no form field
besides it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tagcrawl.engine.scripts import script

#: Below this many characters of visible text, a page is a "short page".
SHORT_PAGE_CHARS = 1500
BLOCK_STATUSES = (403, 429, 503)


@dataclass(frozen=True)
class BlockPage:
    """Fingerprint of a vendor's block page.

    ``title``/``text``/``markup`` are regular expressions over the lower-case
    title, visible text and HTML; the markup must always match.  ``rule`` says
    what else must hold: "akamai" (HTTP 403, or the title on a short page),
    "status_or_short" (the title or wording on HTTP 403/429/503 or a short
    page), "short" (a short page), "title" (the title alone),
    "status_or_captcha" (HTTP 403/429, or a visible CAPTCHA of ``captcha_kind``).  ``captcha_kind``: the page is a CAPTCHA
    wall (``recaptcha``) when a CAPTCHA of that kind is visible on it.
    """

    vendor: str
    title: str | None
    text: str | None
    markup: str
    rule: str
    captcha_kind: str | None = None


BLOCK_PAGES = (
    BlockPage("Akamai", r"^access denied$", r"reference\s*#\s*\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+",
              r"errors\.edgesuite\.net|reference\s*&#35;|reference\s*#\s*\d+\.[0-9a-f]+\.\d+", "akamai"),
    BlockPage("Cloudflare", r"attention required! \| cloudflare", r"sorry, you have been blocked",
              r"cf-error-details|cf-wrapper|cloudflare ray id|cf-footer-ray", "status_or_short"),
    BlockPage("Cloudflare challenge", r"^(just a moment|un instant|einen moment|un momento|momentje|один момент)",
              None, r"cf-chl|_cf_chl_opt|/cdn-cgi/challenge-platform", "title", "turnstile"),
    BlockPage("Imperva/Incapsula", None, r"incapsula incident id|request unsuccessful\. incapsula",
              r"_incapsula_resource|incapsula incident id|/_incapsula_|powered by imperva", "short"),
    BlockPage("DataDome", None, None, r"captcha-delivery\.com", "status_or_captcha", "datadome"),
    BlockPage("PerimeterX", r"access to this page has been denied", r"press (?:&|and) hold",
              r"px-captcha|captcha\.px-cdn\.net|/captcha/captcha\.js|_pxappid", "status_or_short", "px-captcha"),
)

#: Collects what the classifier needs from the page (runs in the main frame; ``blocking_probe.js``).
PROBE_JS = script(__file__, "blocking_probe.js")


def _matches(page: BlockPage, status: int | None, title: str, text: str, html: str, short: bool,
             kinds: set[str]) -> bool:
    title_hit = bool(page.title and re.search(page.title, title))
    text_hit = bool(page.text and re.search(page.text, text))
    marker_hit = bool(re.search(page.markup, html)) or (page.vendor == "Akamai" and text_hit)
    blocked_status = status in BLOCK_STATUSES
    if not marker_hit:
        return False
    if page.rule == "akamai":
        return status == 403 or (title_hit and short)
    if page.rule == "title":
        return title_hit
    if page.rule == "short":
        return short
    if page.rule == "status_or_captcha":
        return status in (403, 429) or page.captcha_kind in kinds
    # status_or_short: the vendor's title or wording, on an error status or a bare page
    return (title_hit or text_hit) and (blocked_status or short)


def classify(status: int | None, probe: dict | None) -> tuple[str | None, str | None]:
    """Classify a loaded page.

    Args:
        status: HTTP status of the main document (None if unknown).
        probe: the result of ``PROBE_JS`` (title, html, text, textLength,
            captchas [{kind, covering}], fields).
    Returns:
        ``(error_message, reason)``: ``("recaptcha", "...")`` for a CAPTCHA
        wall, ``("accessDenied", "...")`` for a block page, ``(None, None)``.
    """
    probe = probe or {}
    title = " ".join((probe.get("title") or "").lower().split())
    html = (probe.get("html") or "").lower()
    text = (probe.get("text") or "").lower()
    short = (probe.get("textLength") or 0) < SHORT_PAGE_CHARS
    captchas = probe.get("captchas") or []
    kinds = {c.get("kind") for c in captchas}
    where = f"HTTP {status}" if status else "unknown HTTP status"
    for page in BLOCK_PAGES:
        if _matches(page, status, title, text, html, short, kinds):
            kind = "recaptcha" if page.captcha_kind and page.captcha_kind in kinds else "accessDenied"
            what = "CAPTCHA wall" if kind == "recaptcha" else "block page"
            return kind, f"blocked by {page.vendor}: {what} ({where})"
    walls = [c for c in captchas if c.get("covering") or (short and not probe.get("fields"))]
    if walls:
        return "recaptcha", f"blocked by a {walls[0].get('kind')} CAPTCHA that covers the page ({where})"
    if status in BLOCK_STATUSES and short:
        return "accessDenied", f"blocked: HTTP {status} and no content"
    return None, None
