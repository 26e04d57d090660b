"""Consent: find the banner, click its accept button, verify the click.

Layers, in order, in every document (main frame, open shadow roots, closed
ones the page hooks recorded, then each iframe, cross-site/out-of-process
ones included, up to ``MAX_FRAME_DEPTH``): (a) known CMPs from
``consent_rules.CMPS``; (b) the IAB TCF API (``__tcfapi('ping')``
``displayStatus``); (c) a multilingual text heuristic over fixed, sticky and
dialog layers.  Late banners are awaited by DOM-change events from the page
hooks, never by a fixed delay, and only while something that could still draw
one (a request, a timer of up to ``CONSENT_WAIT_MS``) is pending.

The click is a real WebDriver click (a JS click only when WebDriver's is
intercepted).  It is verified by what the page did: the banner is gone or
hidden, a consent cookie or storage entry appeared, or the TCF API reported
``useractioncomplete``.
"""
from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from selenium.common.exceptions import WebDriverException

from . import consent_rules as rules

log = logging.getLogger(__name__)

SCAN_JS = Path(__file__).with_name("consent_scan.js").read_text()
MAX_FRAME_DEPTH = 3
RULES_ARG = {
    "cmps": [{k: c[k] for k in ("name", "presence", "accept", "frames", "frame_accept", "globals")}
             for c in rules.CMPS],
    "accept": sorted({p for phrases in rules.ACCEPT_PHRASES.values() for p in phrases}),
    "never": rules.NEVER_WORDS,
    "consentWords": rules.CONSENT_WORDS,
    "ageWords": rules.AGE_GATE_WORDS,
}
CMPS_BY_NAME = {c["name"]: c for c in rules.CMPS}
GENERIC_CONSENT_NAME = re.compile(rules.CONSENT_STORAGE_PATTERN, re.IGNORECASE)
STATE_JS = """(() => {
  const storage = {};
  try { for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i);
        storage[k] = String(localStorage.getItem(k)).slice(0, 300); } } catch (e) {}
  const tcf = window.__tcConsent;
  return {storage, tcf: tcf ? tcf.status : null};
})()"""


@dataclass
class ConsentResult:
    """Outcome of the consent step.

    Attributes:
        banner: a consent banner was found.
        button_text: visible text of the accept button clicked (or found,
            when clicking was not asked), whitespace-normalised.
        cmp: CMP name when known ("OneTrust", "TCF CMP 10"), else None.
        clicked: the button was clicked.
        verified: after the click, ``evidence`` holds at least one signal.
        how: "cmp", "tcf" or "heuristic".
        evidence: what showed the click worked: "banner hidden",
            "cookie <name>", "storage <key>", "tcf useractioncomplete".
        rounds: how many times the page was scanned (1 + DOM changes waited for).
    """

    banner: bool = False
    button_text: str | None = None
    cmp: str | None = None
    clicked: bool = False
    verified: bool = False
    how: str | None = None
    evidence: list[str] = field(default_factory=list)
    rounds: int = 0


@dataclass
class _Finding:
    """A scan result and where it lives: frame paths (iframe elements from the
    top document down) of the accept button and of the banner container."""

    scan: dict
    path: tuple = ()
    box: object = None
    box_path: tuple = ()


def _run_scan(driver, extra: dict):
    try:
        return driver.execute_script(SCAN_JS, dict(RULES_ARG, **extra))
    except WebDriverException as exc:
        log.debug("consent scan failed: %s", getattr(exc, "msg", None) or exc)
        return None


def _scan(driver, extra: dict | None = None, depth: int = 0, path: tuple = ()) -> _Finding | None:
    """Scan the current document, then its iframes (depth first, the banner's
    own iframes first).  Returns the finding with a button, else the first
    banner found without one, else None.  Leaves the driver where it started."""
    scan = _run_scan(driver, extra or {})
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
            driver.switch_to.frame(frame)
        except WebDriverException:
            continue
        try:
            inner = _scan(driver, {"frameLayered": bool(layered), "relaxWords": relax}, depth + 1, path + (frame,))
        finally:
            _back(driver, path)
        if inner and inner.scan.get("button") is not None:
            if best:  # the banner container is out here, its button in the frame
                inner.scan["cmp"] = inner.scan.get("cmp") or best.scan.get("cmp")
                inner.box, inner.box_path = best.box, best.box_path
            return inner
        best = best or inner
    return best


def _back(driver, path: tuple) -> None:
    """Return from a child frame to the frame at ``path`` (the child may be gone)."""
    try:
        driver.switch_to.parent_frame()
    except WebDriverException:
        _enter(driver, path)


def _enter(driver, path: tuple) -> bool:
    """Switch from the top document down ``path``; False when a frame is gone."""
    driver.switch_to.default_content()
    try:
        for frame in path:
            driver.switch_to.frame(frame)
        return True
    except WebDriverException:
        return False


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


def _shown(driver, path: tuple, element) -> bool:
    """Is ``element`` (in the frame at ``path``) still shown?  Gone from the
    DOM, or its frame gone, counts as not shown."""
    if element is None or not _enter(driver, path):
        return False
    try:
        return bool(driver.execute_script(SCAN_JS, {"mode": "check"}, element)[0])
    except WebDriverException:
        return False


def _state(session) -> dict:
    """Cookies (every domain) and the top document's localStorage and TCF status."""
    try:  # CDP trouble here must not fail the crawl: it only weakens the evidence
        cookies = {(c.get("name"), c.get("domain")): c.get("value") for c in session.cookies()}
    except Exception:
        cookies = {}
    try:
        page = session.evaluate(STATE_JS) or {}
    except Exception:
        page = {}
    return {"cookies": cookies, "storage": page.get("storage") or {}, "tcf": page.get("tcf")}


def _changed(before: dict, after: dict, names: list[str]) -> list:
    def consent_like(name: str) -> bool:
        return any(name.startswith(n) for n in names) or bool(GENERIC_CONSENT_NAME.search(name))
    return sorted({k for k, v in after.items() if before.get(k) != v
                   and consent_like(k[0] if isinstance(k, tuple) else k)}, key=str)


def _evidence(before: dict, after: dict, cmp_name: str | None, banner_hidden: bool) -> list[str]:
    known = CMPS_BY_NAME.get(cmp_name or "", {})
    found = ["banner hidden"] if banner_hidden else []
    found += [f"cookie {name}" for name, _domain in _changed(before["cookies"], after["cookies"],
                                                            known.get("consent_cookies", []))]
    found += [f"storage {k}" for k in _changed(before["storage"], after["storage"], known.get("storage", []))]
    if after["tcf"] == "useractioncomplete" != before["tcf"]:
        found.append("tcf useractioncomplete")
    return list(dict.fromkeys(found))


def _wait_for_banner(session, config: dict, deadline: float, result: ConsentResult) -> _Finding | None:
    """Scan until a banner with a button is found, nothing that could draw
    one is pending any more, or ``CONSENT_WAIT_MS`` passed; between scans,
    wait for the next DOM change (or request, or timer) of the page."""
    driver, capture = session.driver, session.capture
    give_up = min(deadline, time.monotonic() + config.get("CONSENT_WAIT_MS", 10000) / 1000.0)
    while True:
        since = time.monotonic()
        result.rounds += 1
        driver.switch_to.default_content()
        found = _scan(driver)
        if (found and found.scan.get("button") is not None) or time.monotonic() >= give_up:
            return found
        changed = capture.wait_dom_change(since, 0)
        if not changed and capture.idle(0, include_late=True):
            return found  # nothing pending could still draw a banner
        if not changed and not capture.wait_dom_change(since, max(0.0, give_up - time.monotonic())):
            return found


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
    driver = session.driver
    result = ConsentResult()
    found = _wait_for_banner(session, config, deadline, result)
    driver.switch_to.default_content()
    if not found:
        return result
    scan = found.scan
    result.banner, result.cmp, result.how = True, scan.get("cmp"), scan.get("how")
    button = scan.get("button")
    if button is None:
        return result
    result.button_text = " ".join((scan.get("text") or "").split()) or None
    if click:
        _accept(session, config, found, deadline, result)
    driver.switch_to.default_content()
    return result


def _accept(session, config: dict, found: _Finding, deadline: float, result: ConsentResult) -> None:
    """Click the accept button, wait for the page to react, collect evidence."""
    driver, button = session.driver, found.scan["button"]
    before = _state(session)
    if not _enter(driver, found.path):
        return
    result.clicked = _click(driver, button)
    if not result.clicked:
        return
    session.capture.wait_quiet(config.get("QUIET_MS", 500), config.get("QUIET_CAP_MS", 8000), deadline)
    if found.box is not None:
        hidden = not _shown(driver, found.box_path, found.box)
    else:
        hidden = not _shown(driver, found.path, button)
    driver.switch_to.default_content()
    result.evidence = _evidence(before, _state(session), result.cmp, hidden)
    result.verified = bool(result.evidence)
    log.debug("consent %s via %s: clicked %r, evidence %s", result.cmp, result.how, result.button_text,
              result.evidence)
