"""Unticking a second layer's toggles before its "Save", when refusing.

A settings layer often shows its purposes switched on by default; its "Save"
(or "Confirm my choices") then stores consent, not a refusal.  Before such a
click, ``untick`` switches off every toggle of the layer that is on and not
locked (``scan.js`` lists them: checkboxes, ``role=switch`` and
``role=checkbox``; the "necessary" ones are disabled and stay on).
"""
from __future__ import annotations

import logging

from selenium.common.exceptions import WebDriverException

from tagcrawl.engine.consent import scripts

log = logging.getLogger(__name__)

#: Toggles switched off per crawl (``scan.js`` lists at most 40 per layer).
MAX_TOGGLES = 40


def untick(session, path: tuple, toggles: list, labels: list, click) -> list[str]:
    """Switch off ``toggles`` (WebElements in the frame at ``path``, the
    driver already there), each by a trusted click, then by its ``click()``
    method when it is still on (``untick.js``).

    Args:
        session: the crawl's ``CrawlSession``.
        path: frame path of the toggles (iframe elements from the top document).
        toggles: the scan's ``toggles``, at most ``MAX_TOGGLES`` are used.
        labels: the scan's ``toggleTexts`` (same order).
        click: ``fn(session, path, element) -> bool`` (``choice._click``).
    Returns:
        the labels of the toggles that are off afterwards ("" for a toggle
        without one), in order.  Never raises on page errors.
    """
    done = []
    for toggle, label in list(zip(toggles, list(labels) + [""] * len(toggles)))[:MAX_TOGGLES]:
        click(session, path, toggle)
        try:
            off = bool(session.driver.execute_script(scripts.UNTICK, toggle))
        except WebDriverException as exc:
            log.debug("untick: %s", getattr(exc, "msg", None) or exc)
            off = False
        if off:
            done.append(str(label or ""))
    return done
