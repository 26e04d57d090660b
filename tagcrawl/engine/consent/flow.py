"""Consent: find the banner, click its accept (or reject) button, verify the click.

Layers, in order, in every document (main frame, open shadow roots, closed
ones the page hooks recorded, then each iframe, cross-site/out-of-process
ones included, up to ``MAX_FRAME_DEPTH``): (a) known CMPs from
``rules.CMPS`` (``cmps/*.json``); (b) the IAB TCF API (``__tcfapi('ping')``
``displayStatus``); (c) a multilingual text heuristic over fixed, sticky and
dialog layers.  Late banners are awaited by DOM-change events from the page
hooks, never by a fixed delay, and only while something that could still draw
one (a request, a timer of up to ``CONSENT_WAIT_MS``) is pending.

The action is ``options.consentAction``: "accept", "reject" (the refuse
button, through a second layer when the banner has none) or "none" (find,
never click).  Clicking, verifying and falling back to the next candidate
live in ``choice.py``; the scripts in ``scripts.py``; the result in ``result.py``.

Before all of these, DuckDuckGo autoconsent's rule base (``auto.py``, when
``Settings.autoconsent`` is on): when its rules found the popup and tagcrawl's
own CMP rules did not name the banner, autoconsent makes the choice and
tagcrawl verifies it; a choice that does not verify falls back to the layers above.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from selenium.common.exceptions import WebDriverException

from tagcrawl.engine.consent import auto as autoconsent, rules, scripts
from tagcrawl.engine.consent.choice import choose, enter
from tagcrawl.engine.consent.result import ConsentResult
from tagcrawl.engine.chrome.driving import switch_frame
from tagcrawl.core.settings import Settings
from tagcrawl.core.truncation import TEXT_MAX, cut

log = logging.getLogger(__name__)

MAX_FRAME_DEPTH = 3
#: The scanner's rules (``scan.js`` arguments[0]): the CMPs in match order and the merged vocabulary.
RULES_ARG = {
    "cmps": [cmp.scanner_rule() for cmp in rules.CMPS],
    "reject": rules.REJECT_WORDS,
    "settingsWords": rules.SETTINGS_WORDS,
    "save": rules.SAVE_WORDS,
    "accept": sorted({p for phrases in rules.ACCEPT_PHRASES.values() for p in phrases}),
    "never": rules.NEVER_WORDS,
    "consentWords": rules.CONSENT_WORDS,
    "ageWords": rules.AGE_GATE_WORDS,
}
ACTIONS = ("accept", "reject", "none")


@dataclass
class _Finding:
    """A scan result and where it lives: frame paths (iframe elements from the
    top document down) of the accept button and of the banner container."""

    scan: dict
    path: tuple = ()
    box: object = None
    box_path: tuple = ()


def run_scan(driver, extra: dict):
    try:
        return driver.execute_script(scripts.SCAN, dict(RULES_ARG, **extra))
    except WebDriverException as exc:
        log.debug("consent scan failed: %s", getattr(exc, "msg", None) or exc)
        return None


def scan_frames(driver, extra: dict | None = None, depth: int = 0, path: tuple = ()) -> _Finding | None:
    """Scan the current document, then its iframes (depth first, the banner's
    own iframes first).  Returns the finding with a button, else the first
    banner found without one, else None.  Leaves the driver where it started.
    ``extra`` (``action``, ``secondLayer``) is passed to every frame's scan."""
    scan = run_scan(driver, extra or {})
    if not scan:
        return None
    best = _Finding(scan, path, scan.get("box"), path) if scan.get("found") else None
    if best and scan.get("button") is not None:
        return best
    if depth >= MAX_FRAME_DEPTH:
        return best
    tcf = scan.get("tcf") or {}
    relax = bool((extra or {}).get("relaxWords")) or tcf.get("displayStatus") == "visible"
    for frame, layered in zip(scan.get("frames") or [], scan.get("frameLayered") or []):
        try:
            switch_frame(driver, frame)
        except WebDriverException:
            continue
        try:
            inner = scan_frames(driver, dict(extra or {}, frameLayered=bool(layered), relaxWords=relax), depth + 1,
                                path + (frame,))
        finally:
            back(driver, path)
        if inner and inner.scan.get("button") is not None:
            if best:  # the banner container is out here, its button in the frame
                inner.scan["cmp"] = inner.scan.get("cmp") or best.scan.get("cmp")
                inner.box, inner.box_path = best.box, best.box_path
            return inner
        best = best or inner
    return best


def back(driver, path: tuple) -> None:
    """Return from a child frame to the frame at ``path`` (the child may be gone)."""
    try:
        driver.switch_to.parent_frame()
    except WebDriverException:
        enter(driver, path)


def _wait_for_banner(session, settings: Settings, deadline: float, result: ConsentResult,
                     extra: dict, auto=None) -> _Finding | None:
    """Scan until a banner with a button is found, autoconsent (``auto``, or
    None) found a popup, nothing that could draw one is pending any more, or
    ``CONSENT_WAIT_MS`` passed; between scans, wait for the next DOM change
    (or request, or timer) of the page."""
    driver, capture = session.driver, session.capture
    give_up = min(deadline, time.monotonic() + settings.consent_wait_ms / 1000.0)
    while True:
        since = time.monotonic()
        result.rounds += 1
        driver.switch_to.default_content()
        found = scan_frames(driver, extra)
        ready = found and (found.scan.get("button") is not None or found.scan.get("settings"))
        ready = ready or (auto is not None and auto.available and auto.popup() is not None)
        if ready or time.monotonic() >= give_up:
            return found
        changed = capture.wait_dom_change(since, 0)
        if not changed and capture.idle(0, include_late=True):
            return found  # nothing pending could still draw a banner
        if not changed and not capture.wait_dom_change(since, max(0.0, give_up - time.monotonic())):
            return found

def handle_consent(session, settings: Settings, click: bool = True, deadline: float = 0.0,
                   action: str | None = None, auto=None) -> ConsentResult:
    """Find the consent banner and, unless the action is "none", click its
    accept or reject button, verify, and fall back to the next candidate.

    Args:
        session: the crawl's ``CrawlSession`` (driver on the page, capture).
        settings: ``consent_wait_ms``, ``quiet_ms``, ``quiet_cap_ms``.
        click: ``options.byPassConsent`` (used when ``action`` is None:
            True means "accept", False "none").
        deadline: monotonic seconds; the search and the clicks stop there.
        action: ``options.consentAction``: "accept", "reject" or "none".
        auto: the crawl's ``AutoconsentCollector`` (``auto.py``), or None.
    Returns:
        ConsentResult.  Never raises on page errors.
    """
    action = action if action in ACTIONS else ("accept" if click else "none")
    driver = session.driver
    result = ConsentResult(action=action)
    extra = {"action": "reject"} if action == "reject" else {}
    extra["key"] = session.capture.hooks.key  # the page hooks' API (dom.js)
    found = _wait_for_banner(session, settings, deadline, result, extra, auto)
    driver.switch_to.default_content()
    popup = autoconsent.await_popup(auto, deadline)
    scan = found.scan if found else {}
    if popup is not None:
        result.banner, result.how = True, scan.get("how") or "autoconsent"
        result.cmp = autoconsent.cmp_name(popup.popup, scan.get("how"), scan.get("cmp"))
        result.button_text = cut(" ".join(str(scan.get("text") or "").split()), TEXT_MAX) or None
        if action != "none" and scan.get("how") != "cmp" and autoconsent.drive(
                session, settings, auto, popup, found, deadline, result):
            return result
    if not found:
        return result
    result.banner, result.cmp, result.how = True, result.cmp or scan.get("cmp"), scan.get("how")
    if scan.get("button") is None and not scan.get("settings"):
        return result
    result.button_text = cut(" ".join(str(scan.get("text") or "").split()), TEXT_MAX) or None
    if action != "none":
        choose(session, settings, found, deadline, result, rescan=lambda more: scan_frames(driver, dict(extra, **more)))
    driver.switch_to.default_content()
    return result
