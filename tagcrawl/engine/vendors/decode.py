"""Decoding of beacon payloads: query strings, form bodies, JSON bodies,
newline-batched bodies (GA4 ``/g/collect``, NDJSON), multipart forms,
base64 / lz-string / gzip-wrapped JSON (bodies and embedded params such as
Mixpanel ``data=``; the encodings are ``encodings.py``) and HTTP basic auth
(Segment / RudderStack write key).

All functions are total: they never raise on malformed input (invalid
percent-encoding, broken JSON, binary-ish text, deep nesting, a MemoryError);
bodies are decoded up to :data:`MAX_BODY` characters only, at most
:data:`MAX_ITEMS` batch items and ``_MAX_PARAMS`` parameters (or multipart
parts) are decoded, and JSON parses are charged to the decoding budget
(``budget.py``).  The bounds are listed in ``docs/security.md`` ("Decoders:
bounded by output").
"""
from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus

from tagcrawl.engine.vendors import budget, encodings

#: Body decoding cap (256 KiB of text).
MAX_BODY = 256 * 1024
#: Maximum number of batched items (lines / JSON list entries) decoded.
MAX_ITEMS = 500
_MAX_PARAMS = 2000
#: Most parts of a multipart body read.
_MAX_PARTS = 1000
#: Most characters of an ``Authorization: Basic`` value decoded.
_MAX_AUTH = 4096


def _unquote(text: str) -> str:
    try:
        return unquote_plus(text, errors="replace")
    except Exception:  # pragma: no cover - unquote_plus is total for str
        return text


def decode_query(qs: str | None) -> dict[str, str]:
    """Decode an ``application/x-www-form-urlencoded`` string.

    Args:
        qs: ``a=1&b=x%20y`` (no leading ``?``), may be None or garbage.
    Returns:
        ``{name: value}``; for repeated names the first value wins.
    """
    out: dict[str, str] = {}
    if not qs:
        return out
    for part in qs[:MAX_BODY].split("&", _MAX_PARAMS)[:_MAX_PARAMS]:
        if not part:
            continue
        name, _, value = part.partition("=")
        name = _unquote(name)
        if name and name not in out:
            out[name] = _unquote(value)
    return out


def decode_matrix(path: str) -> dict[str, str]:
    """Decode ``;k=v`` path parameters (Floodlight ``/activity;src=1;cat=x``).

    Also accepts the ``/ddm/activity/src=1;type=a`` form (first pair after a
    ``/``).  Returns ``{}`` when the path has no ``;``.
    """
    out: dict[str, str] = {}
    if ";" not in path:
        return out
    head, _, rest = path.partition(";")
    parts = rest.split(";", _MAX_PARAMS)[:_MAX_PARAMS]
    last = head.rsplit("/", 1)[-1]
    if "=" in last:
        parts.insert(0, last)
    for part in parts[:_MAX_PARAMS]:
        name, sep, value = part.partition("=")
        if sep and name:
            out.setdefault(_unquote(name), _unquote(value))
    return out


def _str(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (int, float)):
        return str(value)
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)[:4096]
    except Exception:
        return str(value)[:4096]


def flatten(doc: Any) -> dict[str, str]:
    """Flatten a JSON object one level: ``{"a": {"b": 1}, "c": 2}`` ->
    ``{"a.b": "1", "c": "2"}``; deeper values become JSON strings.
    Non-dict input gives ``{}``."""
    out: dict[str, str] = {}
    if not isinstance(doc, dict):
        return out
    for k, v in list(doc.items())[:_MAX_PARAMS]:
        k = str(k)
        if isinstance(v, dict) and v:
            for k2, v2 in list(v.items())[:_MAX_PARAMS]:
                out[f"{k}.{k2}"] = _str(v2)
        else:
            out[k] = _str(v)
    return out


def parse_json(text: str | None) -> Any:
    """``json.loads`` of the first :data:`MAX_BODY` characters, or None instead
    of raising (also on RecursionError from absurd nesting, and MemoryError),
    or when the decoding budget refuses them."""
    if not text or not isinstance(text, str):
        return None
    s = text[:MAX_BODY].strip()
    if not s or s[0] not in "[{" or not budget.charge(len(s)):
        return None
    try:
        return json.loads(s)
    except Exception:  # ValueError, RecursionError, MemoryError
        return None


def decode_embedded_json(value: str | None) -> Any:
    """Decode a parameter carrying JSON: verbatim, base64/base64url, gzip in
    base64, or lz-string (Mixpanel ``data=``, Klaviyo ``data=``, PostHog
    ``data=`` with ``compression=base64|lz64``; see
    :func:`encodings.unwrap_json`).  Returns the parsed object or None."""
    if not value or not isinstance(value, str):
        return None
    return encodings.unwrap_json(value[:MAX_BODY])[0]


def basic_auth_user(headers: dict[str, str] | None) -> str | None:
    """User part of an ``Authorization: Basic`` header (Segment / RudderStack
    send the write key as the user name), or None."""
    if not headers:
        return None
    try:
        auth = next((v for k, v in headers.items() if str(k).lower() == "authorization"), None)
        if not isinstance(auth, str) or not auth[:6].lower() == "basic ":
            return None
        raw = base64.b64decode(auth[6:6 + _MAX_AUTH].strip() + "==", validate=False).decode("utf-8", "replace")
        user = raw.partition(":")[0]
        return user or None
    except Exception:
        return None


def _looks_form(line: str) -> bool:
    if "=" not in line:
        return False
    head = line.partition("=")[0]
    return bool(head) and " " not in head and "{" not in head


def multipart_fields(text: str, content_type: str | None) -> dict[str, str] | None:
    """Fields of a ``multipart/form-data`` body, or None when it is not one.

    Args:
        text: the body as text.
        content_type: the ``Content-Type`` header (its ``boundary=``); when
            absent, a body whose first line is ``--<token>`` is taken as
            multipart with that boundary (Chrome's ``FormData`` shape).
    Returns:
        ``{field name: value}`` (file parts too, as text), first value wins;
        the first ``_MAX_PARTS`` parts are read.
    """
    m = re.search(r'boundary="?([^";,]+)"?', content_type or "", re.IGNORECASE)
    boundary = m.group(1) if m else None
    if boundary is None:
        first = text.lstrip("\r\n").split("\n", 1)[0].strip()
        if not (first.startswith("--") and len(first) > 4 and " " not in first):
            return None
        boundary = first[2:]
    out: dict[str, str] = {}
    for part in text.split("--" + boundary, _MAX_PARTS)[1:_MAX_PARTS]:
        if part.startswith("--"):
            break
        head, sep, value = part.lstrip("\r\n").partition("\r\n\r\n")
        if not sep:
            head, sep, value = part.lstrip("\n").partition("\n\n")
        name = re.search(r'name="([^"]*)"', head)
        if name and name.group(1) not in out:
            out[name.group(1)] = value.rstrip("\r\n")
    return out or None


@dataclass
class Body:
    """A decoded request body.

    Attributes:
        kind: "none", "json", "form", "lines" (several form-encoded lines,
            e.g. a GA4 batch), "jsonlines" (NDJSON), "multipart" or "raw".
        params: flattened parameters (form fields, or JSON flattened one level).
        json: the parsed JSON document (``jsonlines`` gives a list), else None.
        lines: for "form"/"lines", one ``{name: value}`` dict per line.
        encoding: how a "json" body was wrapped: None (plain), "base64",
            "gzip+base64", "lz-string", "lz-string-uri".
    """

    kind: str = "none"
    params: dict[str, str] = field(default_factory=dict)
    json: Any = None
    lines: list[dict[str, str]] = field(default_factory=list)
    encoding: str | None = None


def decode_body(text: str | None, content_type: str | None = None) -> Body:
    """Decode a request body (see :class:`Body`); never raises.

    Args:
        text: the request body as text (``Request.post_data`` after its
            ``Content-Encoding``, ``encodings.body_text``), or None; its first
            :data:`MAX_BODY` characters are read.
        content_type: the ``Content-Type`` header (multipart boundary).
    Returns:
        the Body; ``Body("raw")`` when the body cannot be decoded within the
        bounds (a MemoryError or RecursionError included).
    """
    if not text or not isinstance(text, str):
        return Body()
    try:
        return _decode_body(text[:MAX_BODY], content_type)
    except (MemoryError, RecursionError):
        return Body("raw")


def _decode_body(s: str, content_type: str | None) -> Body:
    doc = parse_json(s)
    if doc is not None:
        return Body("json", flatten(doc), doc)
    fields = multipart_fields(s, content_type)
    if fields is not None:
        return Body("multipart", fields, None, [fields])
    lines = [ln for ln in s.replace("\r\n", "\n").split("\n") if ln.strip()]
    if len(lines) > 1:
        docs = [parse_json(ln) for ln in lines[:MAX_ITEMS]]
        if all(d is not None for d in docs):
            return Body("jsonlines", {}, docs)
        if all(_looks_form(ln) for ln in lines[:MAX_ITEMS]):
            return Body("lines", {}, None, [decode_query(ln) for ln in lines[:MAX_ITEMS]])
    stripped = s.strip()
    one_form = len(lines) == 1 and _looks_form(stripped)
    if one_form and not encodings.looks_base64(stripped):  # "eyJ...=" is no form body: JSON is tried first
        params = decode_query(stripped)
        return Body("form", params, None, [params])
    doc, encoding = encodings.unwrap_json(stripped)  # once: it may try base64, gzip and lz-string
    if doc is not None:
        return Body("json", flatten(doc), doc, encoding=encoding)
    if one_form:
        params = decode_query(stripped)
        return Body("form", params, None, [params])
    return Body("raw")
