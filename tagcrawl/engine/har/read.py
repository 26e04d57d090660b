"""Reading any HAR 1.2 file into captured requests, and classifying them.

A HAR's ``log.entries[]`` become :class:`~tagcrawl.engine.vendors.types.Request`
objects grouped by ``pageref``; the vendor matcher and decoders are the
crawl's own (``tagcrawl.engine.vendors``), so a HAR saved from Chrome DevTools gives
the pixels a crawl of the same traffic would.

Bounds (``docs/har.md``), each checked before the work it bounds:

* the file: ``MAX_HAR_BYTES``, and at most ``MAX_JSON_CONTAINERS`` ``{`` and
  ``[`` bytes (an upper bound on the objects and arrays ``json.loads`` builds,
  so on the parsed document's memory) -- both before parsing;
* the document: at most ``MAX_ENTRIES`` entries and ``MAX_PAGES`` pages;
* each request: a URL of at most ``MAX_URL_CHARS`` (Chrome's own limit; a
  longer one skips the entry), the first ``MAX_HEADERS`` headers, a body cut
  at ``MAX_BODY_CHARS`` characters before any decoding (``bodies.py``).

Errors: :class:`HarError`, one line, naming the field (``log.pages must be
an array, not a number``).  The document's structure (``log``,
``log.entries``, ``log.pages``) must have HAR's types; inside an entry, a
field of another type is ignored and an entry without a request URL is
skipped (``notes`` says how many).  ``MemoryError`` and ``RecursionError``
become a ``HarError``: they never escape ``load_har`` nor ``classify_har``.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tagcrawl.core.schemas import replace_lone_surrogates
from tagcrawl.engine.har.bodies import MAX_BODY_CHARS, post_body
from tagcrawl.engine.vendors import match_requests, pixels_from_hits
from tagcrawl.engine.vendors.types import Request

#: Largest HAR file read (bytes).  Its text can take 4 times as much as a Python str (one astral
#: character makes every character 4 bytes), and so can the parsed strings: measured at the cap,
#: peak RSS +576 MiB (docs/har.md).
MAX_HAR_BYTES = 64 * 1024 * 1024
#: ``{`` plus ``[`` bytes in the file (strings included, so an upper bound on JSON objects and arrays):
#: measured at the cap (20,000 entries of 46 headers, 42 MiB), peak RSS +397 MiB with the matching.
MAX_JSON_CONTAINERS = 1_000_000
MAX_ENTRIES = 100_000
MAX_PAGES = 10_000
#: Chrome refuses longer URLs (``url::kMaxURLChars``, 2 MiB).
MAX_URL_CHARS = 2 * 1024 * 1024
#: Headers read per request (the rest are ignored); ``postData.params``: ``bodies.MAX_PARAMS``.
MAX_HEADERS = 1000

__all__ = ["MAX_BODY_CHARS", "HarError", "classify_har", "load_har", "pixels_by_page", "requests_by_page"]


class HarError(ValueError):
    """The file is not a HAR the reader takes; the message is one line that names the problem."""


def _kind(value: Any) -> str:
    """The JSON type of ``value`` with its article, for messages: ``a number``, ``an array``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def load_har(raw: bytes) -> dict:
    """Parse the bytes of a HAR file, within the file bounds.

    Args:
        raw: the file (UTF-8, a BOM allowed), at most ``MAX_HAR_BYTES``.
    Returns:
        the parsed document, a dict; a lone surrogate escape in a string is
        read as U+FFFD (``schemas.replace_lone_surrogates``), so the answer
        can be printed as UTF-8.
    Raises:
        HarError: too large, too many objects and arrays, not UTF-8, not
            JSON, nested too deeply, or out of memory while parsing.
    """
    if len(raw) > MAX_HAR_BYTES:
        raise HarError(f"too large: the file has more than {MAX_HAR_BYTES} bytes")
    containers = raw.count(b"{") + raw.count(b"[")
    if containers > MAX_JSON_CONTAINERS:
        raise HarError(f"too large: {containers} '{{' and '[' in the file, at most {MAX_JSON_CONTAINERS} are read")
    try:
        text = raw.decode("utf-8-sig")
        doc = replace_lone_surrogates(json.loads(text), text)  # printable: a lone surrogate is U+FFFD
    except UnicodeDecodeError as exc:
        raise HarError(f"not JSON: not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise HarError(f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise HarError(f"not JSON: {str(exc).splitlines()[0][:200]}") from None
    except RecursionError:
        raise HarError("not JSON: nested too deeply") from None
    except MemoryError:
        raise HarError("too large: out of memory while parsing the file") from None
    if not isinstance(doc, dict):
        raise HarError(f"not a HAR file: the document is {_kind(doc)}, not an object")
    return doc


def _epoch_ms(text: Any) -> float:
    if not isinstance(text, str):
        return 0.0
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000.0
    except (ValueError, OverflowError):
        return 0.0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _headers(items: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for h in items[:MAX_HEADERS] if isinstance(items, list) else []:
        if isinstance(h, dict) and isinstance(h.get("name"), str):
            value = h.get("value")
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            out.setdefault(h["name"], str(value) if number else _text(value))
    return out


def _structure(har: Any) -> tuple[list, list]:
    """``(log.entries, log.pages)`` of ``har`` with HAR's types and within the bounds, else HarError."""
    log = har.get("log") if isinstance(har, dict) else None
    if not isinstance(log, dict):
        found = "missing" if log is None else f"{_kind(log)}, not an object"
        raise HarError(f"not a HAR file: log is {found}")
    entries, pages = log.get("entries"), log.get("pages")
    if not isinstance(entries, list):
        found = "missing" if entries is None else f"{_kind(entries)}, not an array"
        raise HarError(f"not a HAR file: log.entries is {found}")
    if pages is not None and not isinstance(pages, list):
        raise HarError(f"not a HAR file: log.pages must be an array, not {_kind(pages)}")
    if len(entries) > MAX_ENTRIES:
        raise HarError(f"too large: log.entries has {len(entries)} entries, at most {MAX_ENTRIES} are read")
    if pages is not None and len(pages) > MAX_PAGES:
        raise HarError(f"too large: log.pages has {len(pages)} pages, at most {MAX_PAGES} are read")
    return entries, pages or []


def requests_by_page(har: Any, notes: list[str] | None = None) -> dict[str, list[Request]]:
    """Group a HAR's entries into requests per page.

    Args:
        har: the parsed HAR document (``{"log": {...}}``).
        notes: if given, one line is appended per kind of entry that was
            skipped or cut (e.g. ``"2 entries skipped: no request.url string"``).
    Returns:
        ``{page id: [Request, ...]}`` in entry order; entries without a
        ``pageref`` (or with an unknown one) go under ``""``.  A request's
        ``frame_url`` is the entry's ``_frameUrl`` (tagcrawl's export), else
        the page's ``title`` (browsers write the document URL there), else
        the request's ``Referer`` header (proxy HARs have no pages), else
        None; the first that is a non-empty string.
    Raises:
        HarError: the structure is not a HAR's or breaks a bound (module docstring).
    """
    entries, pages = _structure(har)
    titles = {p["id"]: p.get("title") for p in pages if isinstance(p, dict) and isinstance(p.get("id"), str)}
    out: dict[str, list[Request]] = {pid: [] for pid in titles}
    skipped = long_urls = 0
    for e in entries:
        req = e.get("request") if isinstance(e, dict) else None
        url = req.get("url") if isinstance(req, dict) else None
        if not isinstance(url, str):
            skipped += 1
            continue
        if len(url) > MAX_URL_CHARS:
            long_urls += 1
            continue
        page = _text(e.get("pageref"))
        page = page if page in titles else ""
        headers = _headers(req.get("headers"))
        referer = next((v for k, v in headers.items() if k.lower() == "referer"), None)
        frame = next((f for f in (e.get("_frameUrl"), titles.get(page), referer) if isinstance(f, str) and f), None)
        out.setdefault(page, []).append(Request(
            url=url, method=(_text(req.get("method")) or "GET").upper(), post_data=post_body(req.get("postData")),
            resource_type=(_text(e.get("_resourceType")) or "other").lower(),
            frame_url=frame, timestamp=_epoch_ms(e.get("startedDateTime")), headers=headers))
    if notes is not None and skipped:
        notes.append(f"{skipped} entries skipped: no request.url string")
    if notes is not None and long_urls:
        notes.append(f"{long_urls} entries skipped: request.url longer than {MAX_URL_CHARS} characters")
    return out


def pixels_by_page(har: Any, notes: list[str] | None = None) -> dict[str, list[dict]]:
    """``{page id: marketingPixels}`` of a HAR (``""`` = entries without a
    page), each list in the crawl response's MarketingPixel shape.

    Args:
        har: the parsed document; notes: as for ``requests_by_page``.
    Raises:
        HarError: not a HAR document, or a bound broken (module docstring).
    """
    return {page: pixels_from_hits(match_requests(reqs)) for page, reqs in requests_by_page(har, notes).items()}


def classify_har(raw: bytes, notes: list[str] | None = None) -> dict[str, list[dict]]:
    """``pixels_by_page`` of the HAR file ``raw`` (``load_har`` then the matcher).

    Raises:
        HarError: anything wrong with the file (one line); ``MemoryError`` and
            ``RecursionError`` of the matcher's decoders included.
    """
    har = load_har(raw)
    try:
        return pixels_by_page(har, notes)
    except MemoryError:
        raise HarError("too large: out of memory while classifying the requests") from None
    except RecursionError:
        raise HarError("a request body is nested too deeply to decode") from None
