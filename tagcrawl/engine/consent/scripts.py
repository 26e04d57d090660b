"""The consent step's JavaScript, one script per job, read once at import from
the ``.js`` files beside this module.

- ``SCAN`` (``dom.js`` + ``scan.js``): find the banner and its candidates in
  one document (``flow.run_scan``).
- ``CHECK`` (``dom.js`` + ``check.js``): is each element still shown (verification).
- ``MARK`` (``dom.js`` + ``mark.js``): remember an element as tried.
- ``STATE`` (``state.js``): localStorage and TCF status, a CDP expression
  with ``__API__`` to fill in (``choice.state``).
- ``SETTLE`` (``settle.js``): async, wait for running animations to end.
- ``UNTICK`` (``untick.js``): switch a toggle off when a click missed it (``toggles``).
- ``FRAMES`` (``frames.js``): a document's first iframes (``signals``).
- ``SIGNALS`` (``signals.js``): async, the TCF / US Privacy / GPP answers.

``dom.js`` is the shared prelude (the hooks' API, shadow roots, visibility);
each file's header comment gives its arguments and its answer.
"""
from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def source(*names: str) -> str:
    """The files ``<name>.js`` beside this module, joined in order (UTF-8).
    Raises OSError when one is missing (the package is incomplete)."""
    return "\n".join((HERE / f"{name}.js").read_text(encoding="utf-8") for name in names)


SCAN = source("dom", "scan")
CHECK = source("dom", "check")
MARK = source("dom", "mark")
STATE = source("state")
SETTLE = source("settle")
UNTICK = source("untick")
FRAMES = source("frames")
SIGNALS = source("signals")
