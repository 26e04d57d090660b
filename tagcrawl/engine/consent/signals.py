"""Consent signals of every frame: IAB TCF, US Privacy and GPP, as the page's
own CMP APIs report them (``signals.js``), read after the consent step.

Frames are walked through WebDriver like the consent scan (top document, then
visible iframes, cross-site ones included, up to ``MAX_DEPTH`` levels and
``MAX_FRAMES`` documents).

What a page's API answers is bounded twice before it is kept: in the page
(``signals.js``: strings cut at ``truncation.CONSENT_STRING_MAX``
characters with the truncation mark, ``applicableSections`` at
``truncation.SECTIONS_MAX`` entries) and here, whatever the script returned
(``bounded``), so a 20 MB ``tcString`` in 13 frames keeps 13 x 8 KiB.
GPP's ``parsedSections`` keeps at most ``GPP_PARSED_SECTIONS_MAX`` sections of
``GPP_SECTION_VALUES_MAX`` values each (``truncation``), in the page and here.
"""
from __future__ import annotations

import logging

from selenium.common.exceptions import WebDriverException

from tagcrawl.core.truncation import (CONSENT_STRING_MAX, GPP_PARSED_DEPTH_MAX, GPP_PARSED_SECTIONS_MAX,
                                     GPP_PARSED_STRING_MAX, GPP_SECTION_VALUES_MAX, SECTIONS_MAX, cap_json, cut)
from tagcrawl.engine.chrome.driving import switch_frame
from tagcrawl.engine.consent import scripts

log = logging.getLogger(__name__)

MAX_DEPTH = 2
MAX_FRAMES = 16
#: How long one document's CMP API may take to call back (ms).
API_TIMEOUT_MS = 500
#: ``signals.js``'s bounds on GPP ``parsedSections``.
PARSED_CAPS = [GPP_PARSED_SECTIONS_MAX, GPP_SECTION_VALUES_MAX, GPP_PARSED_STRING_MAX, GPP_PARSED_DEPTH_MAX]


def collect_signals(driver) -> list[dict]:
    """``[{"url", "tcf": {tcString, cmpId, eventStatus, gdprApplies} | None,
    "usp": str | None, "gpp": {gppString, applicableSections[, applicableSectionsCount],
    parsedSections[, parsedSectionsCut]} | None}]``, one entry per document that defines at least one of the APIs,
    each ``bounded``.  Never raises; leaves the driver on the top document."""
    out: list[dict] = []
    previous = None
    try:
        previous = driver.timeouts.script
        driver.switch_to.default_content()
        driver.set_script_timeout(API_TIMEOUT_MS / 1000.0 + 2)
        _walk(driver, 0, out, [0])
    except WebDriverException as exc:
        log.debug("consent signals: %s", getattr(exc, "msg", None) or exc)
    try:
        driver.switch_to.default_content()
        if previous is not None:
            driver.set_script_timeout(previous)
    except WebDriverException:
        pass
    return out


def _walk(driver, depth: int, out: list, seen: list) -> None:
    seen[0] += 1
    try:
        answer = bounded(driver.execute_async_script(scripts.SIGNALS, API_TIMEOUT_MS, CONSENT_STRING_MAX, SECTIONS_MAX,
                                                        PARSED_CAPS))
    except WebDriverException:
        answer = None
    if answer and (answer.get("tcf") or answer.get("usp") or answer.get("gpp")):
        out.append(answer)
    if depth >= MAX_DEPTH:
        return
    try:
        frames = driver.execute_script(scripts.FRAMES) or []
    except WebDriverException:
        return
    for frame in frames:
        if seen[0] >= MAX_FRAMES:
            return
        try:
            switch_frame(driver, frame)
        except WebDriverException:
            continue
        try:
            _walk(driver, depth + 1, out, seen)
        finally:
            driver.switch_to.parent_frame()


def bounded(answer) -> dict | None:
    """One document's answer (``signals.js``) with every string cut at
    ``CONSENT_STRING_MAX`` characters (the truncation mark) and at most
    ``4 * SECTIONS_MAX`` values in all (``truncation.cap_json``); None when it
    is not a dict.  A page that changed the builtins the script uses cannot
    make more cross.  GPP ``parsedSections`` is capped on its own
    (:func:`bounded_parsed`).  Work: O(the answer as received)."""
    if not isinstance(answer, dict):
        return None
    gpp = answer.get("gpp")
    parsed = gpp.pop("parsedSections", None) if isinstance(gpp, dict) else None
    sections = gpp.get("applicableSections") if isinstance(gpp, dict) else None
    if isinstance(sections, list) and len(sections) > SECTIONS_MAX:  # the page defeated the script's cut
        gpp["applicableSections"], gpp["applicableSectionsCount"] = sections[:SECTIONS_MAX], len(sections)
    capped, _changed = cap_json(answer, CONSENT_STRING_MAX, nodes_max=4 * SECTIONS_MAX, depth_max=4)
    if isinstance(capped.get("gpp"), dict) and parsed is not None:
        capped["gpp"]["parsedSections"], cut_here = bounded_parsed(parsed)
        if cut_here:
            capped["gpp"]["parsedSectionsCut"] = True
    return capped


def bounded_parsed(parsed) -> tuple[dict | None, bool]:
    """GPP ``parsedSections`` as a page answered it, bounded: a dict of at most
    ``GPP_PARSED_SECTIONS_MAX`` sections (keys cut at ``GPP_PARSED_STRING_MAX``),
    each a JSON value of at most ``GPP_SECTION_VALUES_MAX`` nodes, strings cut
    at ``GPP_PARSED_STRING_MAX`` characters, containers deeper than
    ``GPP_PARSED_DEPTH_MAX`` below the section replaced by None
    (``truncation.cap_json``).  Returns ``(kept or None when not a dict, True
    when anything was cut)``.  Work: at most sections x values nodes."""
    if not isinstance(parsed, dict):
        return None, parsed is not None
    kept, cut_any = {}, False
    for number, (name, section) in enumerate(parsed.items()):
        if number >= GPP_PARSED_SECTIONS_MAX:
            cut_any = True
            break
        kept[cut(str(name), GPP_PARSED_STRING_MAX)], changed = cap_json(section, GPP_PARSED_STRING_MAX, nodes_max=GPP_SECTION_VALUES_MAX,
                                      depth_max=GPP_PARSED_DEPTH_MAX)
        cut_any |= changed
    return kept, cut_any


def notes(frames: list[dict]) -> list[str]:
    """Sentences for the report's ``message`` on what the frames' answers lost
    beyond cut strings (those carry the mark): ``applicableSections`` and ``parsedSections`` cut."""
    out = []
    for number, frame in enumerate(frames):
        gpp = frame.get("gpp") if isinstance(frame, dict) else None
        count = gpp.get("applicableSectionsCount") if isinstance(gpp, dict) else None
        if isinstance(count, int) and not isinstance(count, bool):
            out.append(f"consent signals: GPP applicableSections of frame {number} kept "
                       f"{len(gpp.get('applicableSections') or [])} of {count}")
        if isinstance(gpp, dict) and gpp.get("parsedSectionsCut") is True:
            out.append(f"consent signals: GPP parsedSections of frame {number} cut (at most "
                       f"{GPP_PARSED_SECTIONS_MAX} sections of {GPP_SECTION_VALUES_MAX} values; docs/compliance.md)")
    return out
