"""Caps on everything a page can put in a CrawlResponse, applied to the dump
before it is answered, stored or sent as a webhook payload
(``CrawlOutcome.response``).  The convention (a cut string ends with
``…[truncated K chars]``; a cut list is named in ``message``) is
``tagcrawl/core/truncation.py``'s, described in docs/api.md.

1. each page-supplied field is cut to its cap (:data:`STRING_CAPS`), each
   list to its length (:data:`LIST_CAPS`);
2. ``message`` gets a note naming every cut string (here or earlier, in the
   page or in a collector) and every cut list;
3. the whole answer is shrunk to ``Settings.report_max_bytes``
   (``truncation.fit``, with :data:`RESERVE_BYTES` kept for ``message`` and
   the screenshot URLs that the API view completes afterwards).
"""
from __future__ import annotations

from typing import Any, Callable

from tagcrawl.core.truncation import (CONSENT_STRING_MAX, LIST_MAX, MESSAGE_MAX, REDIRECTS_MAX, SECTIONS_MAX,
                                     STORAGE_KEY_MAX, STORAGE_WRITES_MAX, TEXT_MAX, THIRD_PARTIES_MAX,
                                     THIRD_PARTY_DOMAINS_MAX, URL_MAX, cut, fit, is_cut)

_ITEM = ("vendor", "account_id", "name", "domain")
#: ``path`` (dots between keys, ``[]`` for every item of a list) -> characters.
STRING_CAPS: tuple[tuple[str, int], ...] = (
    ("url", URL_MAX), ("error.message", MESSAGE_MAX), ("button.button_text", TEXT_MAX),
    ("marketingPixels[].vendor", TEXT_MAX), ("marketingPixels[].account_id", TEXT_MAX),
    ("marketingPixels[].page", URL_MAX), ("marketingPixels[].warnings[]", TEXT_MAX),
    ("marketingPixels[].organisation", TEXT_MAX),
    ("marketingPixels[].consent_mode[].gcs", TEXT_MAX), ("marketingPixels[].consent_mode[].gcd", TEXT_MAX),
    ("marketingPixels[].tcf.gdpr", TEXT_MAX), ("marketingPixels[].tcf.gdpr_consent", CONSENT_STRING_MAX),
    ("syncs[].vendor", TEXT_MAX), ("syncs[].account_id", TEXT_MAX), ("syncs[].partner", TEXT_MAX),
    ("syncs[].page", URL_MAX), ("syncs[].warnings[]", TEXT_MAX),
    ("cookies[].name", TEXT_MAX), ("cookies[].domain", TEXT_MAX), ("cookies[].vendor", TEXT_MAX),
    ("consent.cmp", TEXT_MAX), ("consent.button_text", TEXT_MAX),
    *((f"consent.{part}[].{key}", TEXT_MAX) for part in ("violations", "before_consent") for key in _ITEM),
    *((f"consent.granted_before_consent[].{key}", TEXT_MAX) for key in ("vendor", "account_id", "gcs", "gcd")),
    ("consent.tcf[].source", TEXT_MAX), ("consent.tcf[].frame", URL_MAX),
    ("consent.tcf[].event_status", TEXT_MAX), ("consent.tcf[].tc_string", CONSENT_STRING_MAX),
    ("consent.us_privacy.string", CONSENT_STRING_MAX), ("consent.gpp.gpp_string", CONSENT_STRING_MAX),
    ("consent.gpp.us_privacy", CONSENT_STRING_MAX), ("consent.gpp.applicable_sections[]", TEXT_MAX),
    ("consent.gpp.source", TEXT_MAX), ("consent.gpp.decode_error", TEXT_MAX),
    ("finalUrl", URL_MAX), ("redirects[].url", URL_MAX),
    *((f"thirdParties[].{key}", TEXT_MAX) for key in ("organisation", "entity", "category")),
    ("thirdParties[].domains[]", TEXT_MAX),
    ("storage[].key", STORAGE_KEY_MAX), ("storage[].script", URL_MAX),
    *((f"storage[].{key}", TEXT_MAX) for key in ("organisation", "entity", "category")),
    ("canonical", URL_MAX), ("links[]", URL_MAX),
)
#: ``path`` -> items kept.
LIST_CAPS: tuple[tuple[str, int], ...] = (
    ("marketingPixels", LIST_MAX), ("marketingPixels[].warnings", 20), ("marketingPixels[].consent_mode", 10),
    ("syncs", LIST_MAX), ("syncs[].warnings", 20),
    ("cookies", LIST_MAX), ("consent.violations", LIST_MAX), ("consent.before_consent", LIST_MAX),
    ("consent.granted_before_consent", LIST_MAX), ("consent.tcf", 10), ("consent.gpp.applicable_sections", SECTIONS_MAX),
    ("redirects", REDIRECTS_MAX),
    ("thirdParties", THIRD_PARTIES_MAX), ("thirdParties[].domains", THIRD_PARTY_DOMAINS_MAX),
    ("storage", STORAGE_WRITES_MAX),
    ("links", LIST_MAX),
)
#: Bytes of ``Settings.report_max_bytes`` kept for ``message`` (at most ``MESSAGE_MAX`` characters, 6
#: bytes each when escaped) and the host the API view puts before the screenshot URLs.
RESERVE_BYTES = 6 * (MESSAGE_MAX + 64) + 2 * 8192
#: The smallest ``report_max_bytes`` honoured.
MIN_REPORT_BYTES = RESERVE_BYTES + 64 * 1024
#: Paths named in the truncation note, at most.
_NOTE_PATHS = 12
#: Top-level fields the last resort of ``fit`` keeps (the rest of the answer may become null).
_KEEP = ("sessionId", "url", "success", "button", "timeTaken", "error", "message", "validationResults")


def _visit(node: Any, parts: list[str], where: str, fn: Callable[[Any, Any, str], None]) -> None:
    """Call ``fn(container, key, path)`` for every value at ``parts`` under ``node``."""
    if not parts or node is None:
        return
    head, rest = parts[0], parts[1:]
    key, many = (head[:-2], True) if head.endswith("[]") else (head, False)
    if not isinstance(node, dict) or key not in node:
        return
    here = f"{where}.{key}" if where else key
    if not many:
        if rest:
            _visit(node[key], rest, here, fn)
        else:
            fn(node, key, here)
        return
    items = node[key]
    if not isinstance(items, list):
        return
    for index in range(len(items)):
        if rest:
            _visit(items[index], rest, f"{here}[{index}]", fn)
        else:
            fn(items, index, f"{here}[{index}]")


def _cap_fields(doc: dict) -> tuple[list[str], list[str]]:
    """Step 1 and the inventory of step 2: (cut strings, cut lists ``"<path> (kept X of Y)"``)."""
    lists: list[str] = []

    def cap_list(container, key, where, cap):
        items = container[key]
        if isinstance(items, list) and len(items) > cap:
            container[key] = items[:cap]
            lists.append(f"{where} (kept {cap} of {len(items)})")

    for path, cap in LIST_CAPS:
        _visit(doc, path.split("."), "", lambda c, k, w, cap=cap: cap_list(c, k, w, cap))
    strings: list[str] = []

    def cap_string(container, key, where, cap):
        container[key] = cut(container[key], cap)
        if is_cut(container[key]):
            strings.append(where)

    for path, cap in STRING_CAPS:
        _visit(doc, path.split("."), "", lambda c, k, w, cap=cap: cap_string(c, k, w, cap))
    return strings, lists


def _note(cut_paths: list[str]) -> str:
    shown = ", ".join(cut_paths[:_NOTE_PATHS])
    more = f" and {len(cut_paths) - _NOTE_PATHS} more" if len(cut_paths) > _NOTE_PATHS else ""
    return f"report truncated (docs/api.md): {shown}{more}"


def cap_response(doc: dict, max_bytes: int) -> dict:
    """``doc`` (a ``CrawlResponseSchema`` dump) with every cap applied, in place.

    Args:
        doc: the dump; changed and returned.
        max_bytes: ``Settings.report_max_bytes`` (at least :data:`MIN_REPORT_BYTES`
            is used).  The JSON of the result (``truncation.json_size``) is at
            most ``max_bytes - 2 * 8192``: the view may still put a host of up
            to 8 KiB before each screenshot URL.
    Returns:
        ``doc``.  Work: linear in its size (a walk per capped path, the
        measurements of ``fit``).
    """
    strings, lists = _cap_fields(doc)
    message = doc.get("message")
    doc["message"] = None
    budget = max(max_bytes, MIN_REPORT_BYTES) - RESERVE_BYTES
    shrunk = fit(doc, budget, keep=_KEEP)
    if strings or lists or shrunk:
        size_note = [f"answer larger than {budget} bytes, shrunk: " + ", ".join(shrunk[:_NOTE_PATHS])] if shrunk else []
        notes = [_note(strings + lists)] if strings or lists else []
        message = "; ".join([m for m in (message,) if m] + notes + size_note)
    doc["message"] = cut(message, MESSAGE_MAX)  # at most 6 * (MESSAGE_MAX + MARK_ROOM) + 2 bytes of JSON
    return doc
