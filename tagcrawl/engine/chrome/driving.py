"""Driving the page without ChromeDriver's traces: clicks and frame switches.

ChromeDriver's element click, and its switch to a frame given as an element,
run a helper script (a Closure-compiled "atom") that leaves a global,
``window.se_exportedFunctionSymbol``, in the document: a page can look for
it, even from the click's own handler.

- ``trusted_click`` scrolls the element into view, computes its centre in the
  top-level viewport (adding the offsets of the frames on its path,
  out-of-process ones included) and sends ``Input.dispatchMouseEvent`` (move,
  press, release) to the page's target: trusted events, nothing left on the
  page.  It refuses (False) when the point is covered by another element, as
  ChromeDriver does ("click intercepted").
- ``switch_frame`` switches by index (ChromeDriver finds the frame with an
  XPath, no atom) when the frame is one that index reaches; otherwise by
  element, then deletes the global from the parent when it can reach it.
"""
from __future__ import annotations

import logging

from selenium.common.exceptions import WebDriverException

from tagcrawl.engine.chrome.cdp import CDPError
from tagcrawl.engine.scripts import script

log = logging.getLogger(__name__)

#: ChromeDriver's frame index: the position among the body's iframes and a frameset's frames
#: (window_commands.cc).
INDEX_JS = script(__file__, "frame_index.js")
SCRUB_JS = "try { delete parent.se_exportedFunctionSymbol; } catch (e) {}"
#: In the element's frame: scroll it into view when needed; ``[x, y, hit]``: its centre in
#: this frame's viewport (CSS px) and whether the element is what is hit there; null without a box.
CENTRE_JS = script(__file__, "click_centre.js")
#: In a frame's parent: ``[left, top]`` where the frame's content box starts in this viewport (CSS px).
OFFSET_JS = script(__file__, "frame_offset.js")


def trusted_click(driver, cdp, page_session: str | None, path: tuple, element, enter) -> bool:
    """Click ``element`` (in the frame at ``path``, the driver already there)
    with DevTools mouse events.

    Args:
        driver: the WebDriver, switched to the element's frame.
        cdp: the crawl's ``CDPConnection``; ``page_session``: the top page's session id.
        path: iframe elements from the top document down to the element's frame (at most a few).
        enter: ``enter(driver, path) -> bool`` (``engine.consent.choice.enter``): switch to a frame path.
    Returns:
        True when the events were sent; False when the element has no box, is
        covered, a frame is gone or Chrome refused (the driver is back in the
        element's frame either way).
    """
    if cdp is None or page_session is None:
        return False
    try:
        centre = driver.execute_script(CENTRE_JS, element)
        if not centre or not centre[2]:
            return False
        x, y = float(centre[0]), float(centre[1])
        for depth in range(len(path) - 1, -1, -1):
            if not enter(driver, path[:depth]):
                return False
            left, top = driver.execute_script(OFFSET_JS, path[depth])
            x, y = x + float(left), y + float(top)
    except (WebDriverException, TypeError, ValueError) as exc:
        log.debug("trusted click: no position: %s", exc)
        return False
    finally:
        enter(driver, path)
    try:
        for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
            params = {"type": kind, "x": x, "y": y, "buttons": buttons}
            if kind != "mouseMoved":
                params.update(button="left", clickCount=1)
            cdp.call("Input.dispatchMouseEvent", params, session_id=page_session, timeout_s=5)
    except CDPError as exc:
        log.debug("trusted click: %s", exc)
        return False
    return True


def switch_frame(driver, frame) -> None:
    """Switch the driver from the current document into the iframe element
    ``frame`` without leaving ChromeDriver's global there (see the module).

    Raises:
        WebDriverException: the frame is gone or is no frame (as
            ``driver.switch_to.frame``).
    """
    index = driver.execute_script(INDEX_JS, frame)
    if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
        driver.switch_to.frame(index)
        return
    driver.switch_to.frame(frame)  # in a shadow root, or outside <body>: by element
    try:
        driver.execute_script(SCRUB_JS)  # a cross-origin parent keeps it
    except WebDriverException:
        pass
