"""Clicking a consent choice, verifying it, and falling back.

``choose`` clicks the first candidate of a scan (``scan.js``), waits
for the page to react, and verifies by what the page did:

- accept: the banner is gone or hidden, a consent cookie or storage entry
  changed, or the TCF API reported ``useractioncomplete`` (any one);
- reject: the banner is gone *and* a choice was stored (cookie, storage or
  TCF ``useractioncomplete``).

A click that does not verify is not the end: the element is marked as tried,
the page is scanned again and the next candidate is clicked (the CMP rule's
other selectors, then buttons found by label), until one verifies, none is
left, ``MAX_CLICKS`` is reached or the deadline passes.  For reject, when the
banner offers no refuse button, its "Settings" button opens the second layer
and the scan looks there for "Reject all", then "Save".  Before that click the
banner is marked as tried, so that the rescan takes the newly opened layer
first (the first one is often still shown); before a "Save" the layer's
toggles that are on are switched off (``toggles``).
"""
from __future__ import annotations

import logging
import re
import time

from selenium.common.exceptions import WebDriverException

from tagcrawl.engine.consent import rules, scripts
from tagcrawl.engine.consent.stored import StoredChoice, written
from tagcrawl.engine.consent.result import BANNER_HIDDEN, TCF_COMPLETE, Evidence
from tagcrawl.engine.consent.toggles import untick
from tagcrawl.engine.chrome.driving import switch_frame, trusted_click
from tagcrawl.core.settings import Settings
from tagcrawl.core.truncation import TEXT_MAX, cut

log = logging.getLogger(__name__)

#: Clicks per crawl (candidates tried plus second layers opened).
MAX_CLICKS = 6
CMPS_BY_NAME = {c.name: c for c in rules.CMPS}
GENERIC_CONSENT_NAME = re.compile(rules.CONSENT_STORAGE_PATTERN, re.IGNORECASE)


def enter(driver, path: tuple) -> bool:
    """Switch from the top document down ``path``; False when a frame is gone."""
    driver.switch_to.default_content()
    try:
        for frame in path:
            switch_frame(driver, frame)
        return True
    except WebDriverException:
        return False


def _click(session, path: tuple, element) -> bool:
    """A trusted click (``click.trusted_click``: DevTools mouse events, nothing
    left on the page); when the element is covered or has no box, its
    ``click()`` method.  The driver is in the element's frame (``path``)."""
    driver = session.driver
    if trusted_click(driver, session.cdp, session.capture.page_session, path, element, enter):
        return True
    try:
        driver.execute_script("arguments[0].click();", element)
        return True
    except WebDriverException:
        return False


#: At most this long for a banner's animations to end (``settle.js``), ms.
SETTLE_MS = 2000


def _shown(driver, path: tuple, element, key: str) -> bool:
    """Is ``element`` (in the frame at ``path``) still shown, once its running
    animations (a fade-out) ended?  Gone from the DOM, or its frame gone,
    counts as not shown.  ``key``: the page hooks' key (closed shadow roots)."""
    if element is None or not enter(driver, path):
        return False
    try:
        if not driver.execute_script(scripts.CHECK, {"key": key}, element)[0]:
            return False
        if not driver.execute_async_script(scripts.SETTLE, element, SETTLE_MS):
            return True
        return bool(driver.execute_script(scripts.CHECK, {"key": key}, element)[0])
    except WebDriverException:
        return False


def _settle(driver, path: tuple) -> None:
    """Let running CSS animations and transitions end (banners fading out,
    second layers fading in), in the frame at ``path`` and the top document."""
    for frames in ([path, ()] if path else [()]):
        if not enter(driver, frames):
            continue
        try:
            root = driver.execute_script("return document.documentElement;")
            driver.execute_async_script(scripts.SETTLE, root, SETTLE_MS)
        except WebDriverException:
            pass
    driver.switch_to.default_content()


def _rescan(capture, rescan, extra: dict, deadline: float):
    """Scan again; when nothing is found (a layer still being drawn), once more
    after the page's next DOM change (at most ``SETTLE_MS``)."""
    found = rescan(extra)
    if found is None and capture.wait_dom_change(time.monotonic(), min(SETTLE_MS / 1000.0,
                                                                       max(0.0, deadline - time.monotonic()))):
        found = rescan(extra)
    return found


def _mark(driver, element, key: str) -> None:
    """Remember ``element`` as tried (in the page hooks, ``key``), never offered again."""
    try:
        driver.execute_script(scripts.MARK, {"key": key}, element)
    except WebDriverException:
        pass


def state(session) -> dict:
    """Cookies (every domain, ``{(name, domain): value}``) and the top
    document's localStorage (``storage``), sessionStorage (``session``), host
    and TCF status (``state.js``: at most 200 keys per storage)."""
    try:  # CDP trouble here must not fail the crawl: it only weakens the evidence
        cookies = {(c.get("name"), c.get("domain")): c.get("value") for c in session.cookies()}
    except Exception:
        cookies = {}
    try:
        page = session.evaluate(scripts.STATE.replace("__API__", session.capture.hooks.api())) or {}
    except Exception:
        page = {}
    return {"cookies": cookies, "storage": page.get("storage") or {}, "session": page.get("session") or {},
            "host": page.get("host") or "", "tcf": page.get("tcf")}


def _changed(before: dict, after: dict, names: tuple[str, ...]) -> list:
    def consent_like(name: str) -> bool:
        return any(name.startswith(n) for n in names) or bool(GENERIC_CONSENT_NAME.search(name))
    return sorted({k for k, v in after.items() if before.get(k) != v
                   and consent_like(k[0] if isinstance(k, tuple) else k)}, key=str)


def evidence(before: dict, after: dict, cmp_name: str | None, banner_hidden: bool,
             stored: list[StoredChoice] = ()) -> list[Evidence]:
    """What shows a click worked, from two ``state()`` snapshots: the banner
    hidden, then the consent cookies and storage entries that changed (the
    CMP's own ``cookies``/``storage`` names or prefixes, or a name matching
    ``CONSENT_STORAGE_PATTERN``), then what the click itself wrote
    (``stored``: ``stored.written``, whatever its name), then TCF
    ``useractioncomplete``; each once."""
    known = CMPS_BY_NAME.get(cmp_name or "")
    found = [BANNER_HIDDEN] if banner_hidden else []
    found += [Evidence("cookie", name) for name, _domain in _changed(before["cookies"], after["cookies"],
                                                                     known.cookies if known else ())]
    found += [Evidence("storage", k) for k in _changed(before["storage"], after["storage"],
                                                       known.storage if known else ())]
    found += [Evidence("cookie" if s.type == "cookie" else "storage", s.name) for s in stored]
    if after["tcf"] == "useractioncomplete" != before["tcf"]:
        found.append(TCF_COMPLETE)
    return list(dict.fromkeys(found))


def _outcome(session, initial: dict, cmp_name: str | None, banner: tuple, finding, before: dict,
             result) -> list[Evidence]:
    """Evidence after a click: is the banner (and the layer clicked in) hidden,
    what did the page store since ``initial``, and what did it write since
    ``before`` (just before the click; into ``result.stored_choice``)."""
    driver, key = session.driver, session.capture.hooks.key
    hidden = not _shown(driver, banner[1], banner[0], key)
    if finding.box is not None and finding.box is not banner[0]:
        hidden = hidden and not _shown(driver, finding.box_path, finding.box, key)
    driver.switch_to.default_content()
    after = state(session)
    result.stored_choice = written(before, after)
    return evidence(initial, after, cmp_name, hidden, result.stored_choice)


def _verified(action: str, found: list[Evidence]) -> bool:
    if action == "reject":
        return BANNER_HIDDEN in found and any(e != BANNER_HIDDEN for e in found)
    return bool(found)


def _browser_now(driver) -> float:
    """The browser's clock, epoch ms: the clock of the requests' ``wallTime``
    (a remote Grid browser's clock may differ from this machine's)."""
    try:
        return float(driver.execute_script("return Date.now();"))
    except (WebDriverException, TypeError, ValueError):
        return time.time() * 1000.0


def _text(value) -> str | None:
    """A button label with its white space collapsed, cut at ``TEXT_MAX`` characters (truncation mark)."""
    return cut(" ".join(str(value or "").split()), TEXT_MAX) or None


def choose(session, settings: Settings, finding, deadline: float, result, rescan) -> None:
    """Click candidates of ``finding`` for ``result.action`` until one verifies.

    Args:
        session: the crawl's ``CrawlSession``.
        settings: ``quiet_ms``, ``quiet_cap_ms``.
        finding: the ``consent._Finding`` of the banner (scan, frame paths).
        deadline: monotonic seconds.
        result: the ``ConsentResult`` to fill (``clicked``, ``verified``,
            ``evidence``, ``button_text``, ``attempts``, ``unticked``,
            ``choice_ms``, ``cookies_at_choice``).
        rescan: ``fn(extra) -> finding | None``: scans the page again
            (``extra``: ``{"secondLayer": True}`` after a settings click).
    """
    driver, capture = session.driver, session.capture
    quiet, cap = settings.quiet_ms, settings.quiet_cap_ms
    initial = state(session)
    banner = (finding.box, finding.box_path) if finding.box is not None else (finding.scan.get("button"),
                                                                             finding.path)
    second = False
    for _ in range(MAX_CLICKS):
        if time.monotonic() >= deadline - 0.5 or finding is None:
            return
        scan = finding.scan
        buttons, settings = scan.get("buttons") or [], scan.get("settings") or []
        if buttons:
            element, label, opens = buttons[0], (scan.get("texts") or [None])[0], False
        elif result.action == "reject" and settings:
            element, label, opens = settings[0], (scan.get("settingTexts") or [None])[0], True
        else:
            return
        if opens and finding.box is not None and enter(driver, finding.box_path):
            _mark(driver, finding.box, capture.hooks.key)  # the rescan takes the new layer first
        if not enter(driver, finding.path):
            return
        _mark(driver, element, capture.hooks.key)
        if result.action == "reject" and buttons and (scan.get("saving") or [False])[0]:
            result.unticked += untick(session, finding.path, scan.get("toggles") or [],
                                      scan.get("toggleTexts") or [], _click)
            if not enter(driver, finding.path):
                return
        before = state(session)
        clicked_at = _browser_now(driver)
        if not _click(session, finding.path, element):
            finding = _rescan(capture, rescan, {"secondLayer": second}, deadline)
            continue
        result.clicked = True
        result.attempts.append(_text(label) or "")
        capture.wait_quiet(quiet, cap, deadline)
        _settle(driver, finding.path)
        if opens:
            second = True
            finding = _rescan(capture, rescan, {"secondLayer": True}, deadline)
            continue
        found = _outcome(session, initial, result.cmp, banner, finding, before, result)
        if not _verified(result.action, found) and capture.wait_dom_change(
                time.monotonic(), min(SETTLE_MS / 1000.0, max(0.0, deadline - time.monotonic()))):
            _settle(driver, finding.path)  # the page reacted late: look again once
            found = _outcome(session, initial, result.cmp, banner, finding, before, result)
        log.debug("consent %s %s via %s: clicked %r, evidence %s", result.action, result.cmp, result.how, label,
                  [str(e) for e in found])
        if _verified(result.action, found):
            result.verified, result.evidence = True, found
            result.button_text = _text(label)
            result.choice_ms = clicked_at
            result.cookies_at_choice = set(before["cookies"])
            return
        result.evidence = found
        if BANNER_HIDDEN in found:  # gone without storing a choice: still the moment of the choice
            result.button_text, result.choice_ms = _text(label), clicked_at
            result.cookies_at_choice = set(before["cookies"])
        finding = _rescan(capture, rescan, {"secondLayer": second}, deadline)
