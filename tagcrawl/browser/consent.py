"""Consent: find the banner, click its accept button, verify the click.

Layers, in order, in every document (main frame, open shadow roots, then each
iframe, cross-site/out-of-process ones included, up to ``MAX_FRAME_DEPTH``):
(a) known CMPs from ``consent_rules.CMPS``; (b) the IAB TCF API
(``__tcfapi('ping')`` ``displayStatus``); (c) a multilingual text heuristic
over fixed/sticky/dialog layers.  Late banners are awaited by DOM-change
events from the page hooks, never by a fixed delay.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from selenium.common.exceptions import WebDriverException

from . import consent_rules as rules

log = logging.getLogger(__name__)

SCAN_JS = Path(__file__).with_name("consent_scan.js").read_text()
MAX_FRAME_DEPTH = 3
RULES_ARG = {
    "cmps": [{"name": c["name"], "presence": c["presence"], "accept": c["accept"]} for c in rules.CMPS],
    "accept": sorted({p for phrases in rules.ACCEPT_PHRASES.values() for p in phrases}),
    "never": rules.NEVER_WORDS,
    "consentWords": rules.CONSENT_WORDS,
}


@dataclass
class ConsentResult:
    """Outcome of the consent step.

    Attributes:
        banner: a consent banner was found.
        button_text: visible text of the accept button clicked (or found,
            when clicking was not asked), whitespace-normalised.
        cmp: CMP name when known ("OneTrust", "TCF CMP 10"), else None.
        clicked: the button was clicked.
        verified: after the click the banner disappeared or consent was stored.
        how: "cmp", "tcf" or "heuristic".
    """

    banner: bool = False
    button_text: str | None = None
    cmp: str | None = None
    clicked: bool = False
    verified: bool = False
    how: str | None = None


def _scan(driver, depth: int = 0):
    """Scan the current frame, then its iframes; returns (found, frame path)."""
    try:
        found = driver.execute_script(SCAN_JS, RULES_ARG)
    except WebDriverException as exc:
        log.debug("consent scan failed: %s", exc.msg if hasattr(exc, "msg") else exc)
        return None
    if found and found.get("banner") and found.get("button") is not None:
        return found
    if depth < MAX_FRAME_DEPTH:
        for frame in (found or {}).get("frames", []):
            try:
                driver.switch_to.frame(frame)
            except WebDriverException:
                continue
            inner = _scan(driver, depth + 1)
            if inner and inner.get("button") is not None:
                return inner  # stay switched into that frame for the click
            driver.switch_to.parent_frame()
    return found if found and found.get("banner") else None


def _click(driver, element) -> bool:
    try:
        element.click()
        return True
    except WebDriverException:
        try:
            driver.execute_script("arguments[0].click();", element)
            return True
        except WebDriverException:
            return False


def _still_visible(driver, element) -> bool:
    try:
        return bool(element.is_displayed())
    except WebDriverException:  # stale: removed from the DOM
        return False


def handle_consent(session, config: dict, click: bool, deadline: float) -> ConsentResult:
    """Find the consent banner and, when ``click``, accept it and verify.

    Args:
        session: the crawl's ``CrawlSession`` (driver on the page, capture).
        config: settings (``CONSENT_WAIT_MS``, ``QUIET_MS``, ``QUIET_CAP_MS``).
        click: ``options.byPassConsent``.
        deadline: monotonic seconds; the search stops there.
    Returns:
        ConsentResult.  Never raises on page errors.
    """
    driver, capture = session.driver, session.capture
    quiet_ms = config.get("QUIET_MS", 500)
    give_up = min(deadline, time.monotonic() + config.get("CONSENT_WAIT_MS", 10000) / 1000.0)
    found = None
    while True:
        since = time.monotonic()
        driver.switch_to.default_content()
        found = _scan(driver)
        if (found and found.get("button") is not None) or time.monotonic() >= give_up:
            break
        # Nothing yet: wait for the page to change (DOM mutation, request, timer).
        # A page with nothing pending (no request, no timer that could draw a
        # banner within CONSENT_WAIT_MS) is not held any longer.
        if capture.idle(0, include_late=True):
            break
        if not capture.wait_dom_change(since, max(0.0, give_up - time.monotonic())):
            break
    result = ConsentResult()
    if not found or not found.get("banner"):
        driver.switch_to.default_content()
        return result
    result.banner, result.cmp, result.how = True, found.get("cmp"), found.get("how")
    button = found.get("button")
    if button is not None:
        result.button_text = " ".join((found.get("text") or "").split()) or None
        if click:
            cookies_before = len(session.cookies())
            result.clicked = _click(driver, button)
            if result.clicked:
                capture.wait_quiet(quiet_ms, config.get("QUIET_CAP_MS", 8000), deadline)
                result.verified = not _still_visible(driver, button) or len(session.cookies()) > cookies_before
    driver.switch_to.default_content()
    return result
