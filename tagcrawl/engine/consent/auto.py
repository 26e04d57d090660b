"""Consent through DuckDuckGo autoconsent's rule base, under tagcrawl's own verification.

The ``autoconsent`` collector (``engine/collectors/autoconsent.py``) runs
autoconsent in every frame's isolated world; its rules detect the CMP and
report an open popup (``popupFound``).  ``drive`` then sends ``optIn``
(accept) or ``optOut`` (reject) to that frame, waits for the result (at most
``ACTION_S`` and never past the crawl deadline), lets the page settle and
verifies as tagcrawl does for its own clicks (``choice.evidence``): the popup
is gone (the rule's ``detectPopup`` selectors, else the banner tagcrawl's scan
found) and, for a refusal, a choice was stored (a consent cookie or storage
entry, what the click wrote: ``stored.written``, or TCF ``useractioncomplete``).

``cmp_name`` says which name is reported: tagcrawl's own CMP rule's when its
scan matched one (tagcrawl's rules name the library), else autoconsent's rule
name unless it is a generated site rule (``auto_*``: named after a site, not
a CMP), else what tagcrawl's scan said (TCF, heuristic).
"""
from __future__ import annotations

import logging
import time

from tagcrawl.engine.consent.choice import SETTLE_MS, _browser_now, _settle, _shown, _text, _verified, evidence, state
from tagcrawl.engine.consent.result import BANNER_HIDDEN, ConsentResult
from tagcrawl.engine.consent.stored import written
from tagcrawl.core.settings import Settings

log = logging.getLogger(__name__)

#: At most this long for autoconsent's opt-in/opt-out steps (its own waits are up to 10 s per step).
ACTION_S = 10.0
#: At most this long for a popup once autoconsent detected a CMP whose popup is not reported yet.
POPUP_WAIT_S = 3.0


def cmp_name(auto_name: str | None, scan_how: str | None, scan_cmp: str | None) -> str | None:
    """The reported CMP name (see the module docstring)."""
    if scan_how == "cmp" and scan_cmp:
        return scan_cmp
    if auto_name and not auto_name.startswith("auto_"):
        return auto_name
    return scan_cmp


def await_popup(auto, deadline: float):
    """The frame whose popup autoconsent found, waiting (at most
    ``POPUP_WAIT_S``, never past ``deadline``) while it still detects one; or None."""
    if auto is None or not auto.available:
        return None
    if auto.popup() is None and auto.detecting():
        auto.wait(lambda: auto.popup() is not None or not auto.detecting(),
                  min(deadline - 0.5, time.monotonic() + POPUP_WAIT_S))
    return auto.popup()


def _hidden(session, auto, frame, finding, deadline: float) -> bool:
    """The popup is gone: its rule's selectors match nothing shown, or (a code-based
    CMP) the banner tagcrawl's scan found is not shown; unknown counts as shown.
    The check waits at most 2 s, never past ``deadline``."""
    shown = auto.popup_shown(frame, max(0.0, min(2.0, deadline - time.monotonic())))
    if shown is None and finding is not None and finding.box is not None:
        shown = _shown(session.driver, finding.box_path, finding.box, session.capture.hooks.key)
        session.driver.switch_to.default_content()
    return shown is False


def drive(session, settings: Settings, auto, frame, finding, deadline: float, result: ConsentResult) -> bool:
    """Make ``result.action``'s choice with autoconsent's rule in ``frame``.

    Args:
        session: the crawl's ``CrawlSession``.
        settings: ``quiet_ms``, ``quiet_cap_ms``.
        auto: the ``AutoconsentCollector``; frame: its ``AutoFrame`` with the popup.
        finding: tagcrawl's own scan result (``flow._Finding``) or None.
        deadline: monotonic seconds.
        result: filled (``clicked``, ``verified``, ``evidence``, ``stored_choice``,
            ``choice_ms``, ``cookies_at_choice``, ``button_text``, ``rules``).
    Returns:
        True when the choice was verified; False: autoconsent failed or its
        choice did not verify (the caller falls back to tagcrawl's own rules).
    """
    capture = session.capture
    before = state(session)
    clicked_at = _browser_now(session.driver)
    auto.act(frame, result.action)
    if not auto.wait(lambda: frame.result is not None, min(deadline - 0.5, time.monotonic() + ACTION_S)) \
            or not frame.result:
        log.debug("autoconsent %s %s: no result (%s)", result.action, frame.popup, frame.result)
        return False
    result.clicked, result.rules = True, "autoconsent"
    result.attempts.append(f"autoconsent {frame.popup}")
    capture.wait_quiet(settings.quiet_ms, settings.quiet_cap_ms, deadline)
    _settle(session.driver, ())
    hidden = _hidden(session, auto, frame, finding, deadline)
    if not hidden and capture.wait_dom_change(time.monotonic(),
                                              min(SETTLE_MS / 1000.0, max(0.0, deadline - time.monotonic()))):
        _settle(session.driver, ())
        hidden = _hidden(session, auto, frame, finding, deadline)
    after = state(session)
    stored = written(before, after)
    found = evidence(before, after, result.cmp, hidden, stored)
    log.debug("autoconsent %s %s: evidence %s", result.action, frame.popup, [str(e) for e in found])
    result.evidence, result.stored_choice = found, stored
    label = _text(frame.label)
    if _verified(result.action, found) or BANNER_HIDDEN in found:
        result.verified = _verified(result.action, found)
        result.choice_ms, result.cookies_at_choice = clicked_at, set(before["cookies"])
        result.button_text = label or result.button_text
    return result.verified
