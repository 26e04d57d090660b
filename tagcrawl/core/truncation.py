"""How page data is capped before it enters a report (core, no tagcrawl imports).

A page decides the strings and lists that a CrawlResponse copies (TC and GPP
strings, button texts, URLs, dataLayer values, cookie names).  Each has a cap,
applied before the value is kept (``engine/consent/signals``, the collectors)
and again on the answer (``crawl/report_caps.py``); the whole answer has a
byte cap (``Settings.report_max_bytes``, :func:`fit`).  docs/api.md
("Truncated values") is the public description of this convention:

- a **string** longer than its cap ``N`` is cut to its first ``N`` characters
  followed by :data:`MARK` (``"…[truncated K chars]"``, ``K`` the characters
  removed; a string cut in the page by ``engine/consent/signals.js`` counts UTF-16
  code units, as JavaScript does);
- a **list** longer than its cap keeps its first items, and the answer's
  ``message`` names the list with ``kept X of Y``.

Caps (characters, or items for lists) are the constants below.
"""
from __future__ import annotations

import json
import re
from typing import Any

#: Suffix of a cut string; ``{n}``: the characters removed.
MARK = "…[truncated {n} chars]"
#: A string that already ends with the mark (cut in the page, or earlier here).
_MARKED = re.compile(r"…\[truncated ([0-9]{1,12}) chars\]\Z")
#: Room for the mark itself: a string at most this much over its cap that ends with the mark is kept as it is.
MARK_ROOM = 40

#: TC strings, GPP strings, US Privacy strings, a pixel's ``gdpr_consent``.
CONSENT_STRING_MAX = 8192
#: URLs: the crawled ``url``, a pixel's ``page``, a TCF entry's ``frame``.
URL_MAX = 4096
#: Other page text: button texts, CMP names, cookie names and domains, event status, ``gcs``/``gcd``.
TEXT_MAX = 1024
#: ``message`` and ``error.message``.
MESSAGE_MAX = 4096
#: A string inside a dataLayer value.
DATALAYER_STRING_MAX = 4096
#: Items: marketing pixels, cookies, each consent list (violations, before_consent, granted_before_consent).
LIST_MAX = 1000
#: HTTP redirect hops of the main document (``redirects``): Chrome follows at most 20.
REDIRECTS_MAX = 20
#: ``thirdParties`` entries (tagcrawl/engine/parties/attribution.py), and registrable domains per entry.
THIRD_PARTIES_MAX = 500
THIRD_PARTY_DOMAINS_MAX = 20
#: ``storage`` entries (localStorage/sessionStorage writes, tagcrawl/engine/collectors/storage.py), and
#: characters of a storage key.
STORAGE_WRITES_MAX = 500
STORAGE_KEY_MAX = 256
#: GPP ``applicable_sections`` entries.
SECTIONS_MAX = 64
#: GPP ``parsed_sections`` (what the page's CMP decoded itself): sections kept, values (nodes) per
#: section, characters per string or key, nesting below a section (deeper objects become null).
GPP_PARSED_SECTIONS_MAX = 32
GPP_SECTION_VALUES_MAX = 256
GPP_PARSED_STRING_MAX = 128
GPP_PARSED_DEPTH_MAX = 4
#: A JSON value from the page (a dataLayer push): nodes walked, nesting depth kept.
JSON_NODES_MAX = 10_000
JSON_DEPTH_MAX = 32


def is_cut(text: str) -> bool:
    """True when ``text`` ends with :data:`MARK`."""
    return isinstance(text, str) and _MARKED.search(text[-MARK_ROOM:]) is not None


def cut(value: Any, cap: int) -> Any:
    """``value`` cut to ``cap`` characters plus :data:`MARK` when it is a longer
    str; anything else (None, numbers) unchanged.  A string already cut (it
    ends with the mark) is kept when its head fits, else cut again with the
    mark counting from the original length.  O(cap): the removed tail is never copied."""
    if not isinstance(value, str) or len(value) <= cap:
        return value
    mark = _MARKED.search(value[-MARK_ROOM:])
    if mark is None:
        return value[:cap] + MARK.format(n=len(value) - cap)
    head = len(value) - len(mark.group(0))
    if head <= cap:
        return value
    return value[:cap] + MARK.format(n=head - cap + int(mark.group(1)))  # cut again: count from the original


def cap_json(value: Any, string_max: int = DATALAYER_STRING_MAX, nodes_max: int = JSON_NODES_MAX,
             depth_max: int = JSON_DEPTH_MAX) -> tuple[Any, bool]:
    """A JSON value from the page, bounded: strings (keys too) cut with
    :func:`cut`, at most ``nodes_max`` nodes walked (later entries dropped),
    containers deeper than ``depth_max`` replaced by ``None``.

    Returns:
        ``(capped copy, True when anything was cut)``.  Iterative work is at
        most ``nodes_max`` nodes, recursion at most ``depth_max`` levels.
    """
    budget = [nodes_max]
    changed = [False]

    def walk(node: Any, depth: int) -> Any:
        budget[0] -= 1
        if isinstance(node, str):
            out = cut(node, string_max)
            changed[0] |= out is not node
            return out
        if not isinstance(node, (dict, list)):
            return node
        if depth >= depth_max:
            changed[0] = True
            return None
        if isinstance(node, dict):
            kept: Any = {}
            for key, item in node.items():
                if budget[0] <= 0:
                    changed[0] = True
                    break
                kept[cut(str(key), string_max)] = walk(item, depth + 1)
            return kept
        kept = []
        for item in node:
            if budget[0] <= 0:
                changed[0] = True
                break
            kept.append(walk(item, depth + 1))
        return kept

    return walk(value, 0), changed[0]


def json_size(doc: Any) -> int:
    """Bytes of ``doc`` as JSON with ASCII escapes (Flask's answer; never
    fewer than its UTF-8 form), compact separators."""
    return len(json.dumps(doc, ensure_ascii=True, separators=(",", ":")))


#: :func:`fit` cuts strings to this many characters before it shortens lists.
FIT_STRING_FLOOR = 256


def _leaves(doc: Any, path: str, strings: list, lists: list, in_list: bool = False) -> None:
    """Every string of ``doc`` as ``(length, path, container, key)`` into
    ``strings``, and every list not inside another list as ``(path, container,
    key)`` into ``lists``.  Recursion: the depth of ``doc``."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc)
    for key, value in items:
        where = (f"{path}.{key}" if isinstance(doc, dict) else f"{path}[{key}]").lstrip(".")
        if isinstance(value, str):
            strings.append((len(value), where, doc, key))
        elif isinstance(value, (dict, list)):
            if isinstance(value, list) and not in_list:
                lists.append((where, doc, key))
            _leaves(value, where, strings, lists, in_list or isinstance(value, list))


def fit(doc: dict, max_bytes: int, keep: tuple[str, ...] = ()) -> list[str]:
    """Shrink ``doc`` in place until its JSON (:func:`json_size`) is at most
    ``max_bytes``.  The order, each step only while the document is too large:

    1. strings, longest first, are cut to :data:`FIT_STRING_FLOOR` characters (with the mark);
    2. lists (those not inside another list), the largest JSON first, lose their second half, again and again;
    3. last resort: every top-level value not named in ``keep`` becomes None.

    Only values change, so the result is always a valid JSON document.  Work:
    one walk, one sort of the strings, a few measurements of the whole
    document, and one measurement of a list per halving.

    Args:
        doc: a JSON-serialisable dict (a CrawlResponse dump).
        max_bytes: the cap; at least a few KiB, so that step 3 can meet it.
        keep: top-level keys step 3 never empties (strings among them are cut).
    Returns:
        what was cut: ``"<path>"`` for a string, ``"<path> (kept X of Y)"``
        for a list, ``"<key> (removed)"`` for step 3; ``[]`` when it fitted.
    """
    size = json_size(doc)
    if size <= max_bytes:
        return []
    done: list[str] = []
    strings: list = []
    lists: list = []
    _leaves(doc, "", strings, lists)
    strings.sort(key=lambda s: s[0], reverse=True)
    excess = size - max_bytes
    for length, where, container, key in strings:  # 1
        if length <= FIT_STRING_FLOOR + MARK_ROOM:
            break
        container[key] = cut(container[key], FIT_STRING_FLOOR)
        excess -= length - len(container[key])
        done.append(where)
        if excess <= 0:  # by characters; escapes may make the bytes more
            size = json_size(doc)
            excess = size - max_bytes
            if excess <= 0:
                return done
    size = json_size(doc)
    counts = {where: len(container[key]) for where, container, key in lists}
    sizes = {where: json_size(container[key]) for where, container, key in lists}
    by_path = {where: (container, key) for where, container, key in lists}
    while size > max_bytes and sizes:  # 2: at most log2(items) halvings per list
        where = max(sizes, key=sizes.get)
        container, key = by_path[where]
        if len(container[key]) <= 1:
            del sizes[where]
            continue
        container[key] = container[key][: len(container[key]) // 2]
        new = json_size(container[key])
        size -= sizes[where] - new
        sizes[where] = new
    done += [f"{where} (kept {len(container[key])} of {counts[where]})"
             for where, (container, key) in by_path.items() if len(container[key]) < counts[where]]
    for key in list(doc):  # 3
        if size <= max_bytes:
            break
        if key in keep:
            doc[key] = cut(doc[key], FIT_STRING_FLOOR)
        elif doc[key] is not None:
            doc[key] = None
            done.append(f"{key} (removed)")
        size = json_size(doc)
    return done
