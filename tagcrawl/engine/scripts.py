"""The one loader of tagcrawl's JavaScript files: every script the crawler
runs in a page (or serves) lives in a ``.js`` file beside the module that
uses it, never in a Python string longer than a line or two."""
from __future__ import annotations

import functools
from pathlib import Path


@functools.cache
def script(module_file: str, name: str) -> str:
    """The text of the file ``name`` in the folder of the module ``module_file``
    (pass ``__file__``), e.g. ``script(__file__, "leave.js")``; ``name`` may be a
    path relative to that folder (``"../static/docs-init.js"``).

    Read once per process (cached by path; the files ship with the package,
    ``setup.cfg`` ``package_data``), decoded as UTF-8.

    Raises:
        OSError: the file is missing (a packaging error, seen at import time).
    """
    return (Path(module_file).parent / name).read_text(encoding="utf-8")
