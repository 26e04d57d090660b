"""Glob patterns of validation rules, matched in linear time.

Patterns (``value``, and the cookie-name ``key`` of Cookie rules) are
case-sensitive globs matched against the whole text: ``*`` is any run of
characters (including none), ``?`` exactly one character, every other
character is literal (``[`` included).  ``|`` separates alternatives; a
pattern matches when any alternative does.  An empty pattern matches only
the empty text.  A missing field never matches, not even ``*``.

Patterns are compiled with RE2 (google-re2), whose automaton matches in time
linear in the text: no pattern can make a match backtrack (``*a*a*ab``
against 4,000 ``a`` takes microseconds, where Python's ``re`` took minutes).
Caller input is capped by the API schema: ``PATTERN_MAX`` characters per
pattern, ``RULES_MAX`` rules, ``PATH_SEGMENTS_MAX`` dataLayer path
segments (``docs/security.md``).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import re2

_GLOB = {"*": ".*", "?": "."}
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.dot_nl = True  # ``*`` and ``?`` match newlines too
_RE2_OPTIONS.log_errors = False


@lru_cache(maxsize=2048)
def _compile(pattern: str):
    """Compile a ``|``-separated glob pattern into one RE2 regex (linear-time
    matching; used with ``fullmatch``).  Raises ``re2.error`` for a pattern RE2
    cannot take (a lone surrogate), which the callers treat as no match."""
    alternatives = ("".join(_GLOB.get(ch) or re.escape(ch) for ch in alt)
                    for alt in pattern.split("|"))
    return re2.compile("(?:" + "|".join(alternatives) + ")", _RE2_OPTIONS)


def pattern_matches(pattern: str, text: str | None) -> bool:
    """Return True if ``text`` (str, or None = missing) matches ``pattern``.

    ``pattern`` is a glob with ``*``/``?`` and ``|`` alternatives (see the
    module docstring).  None (a missing field) never matches.
    """
    if text is None or not isinstance(pattern, str) or not isinstance(text, str):
        return False
    try:
        return _compile(pattern).fullmatch(text) is not None
    except (re2.error, UnicodeError):  # lone surrogates: RE2 works on UTF-8
        return False


def to_text(value: Any) -> str | None:
    """Convert a looked-up value to the text that patterns are matched against.

    Strings as-is; booleans ``true``/``false``; None ``null``; numbers, lists
    and dicts as compact JSON (``9.99``, ``1``, ``{"a":[1,2]}``, non-ASCII kept
    as-is, key order preserved).  Returns None if the value cannot be
    serialised (e.g. too deeply nested or circular) - such a value never
    matches.
    """
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False,
                          default=str)
    except (ValueError, TypeError, RecursionError, OverflowError):
        return None
