"""A HAR entry's ``request.postData`` back to the body the page sent (text or bytes).

HAR 1.2 has only ``postData.text``, a string, for the body; tools write binary bodies in
three ways (``docs/har.md``, "Request bodies"):

* ``encoding: "base64"`` (tagcrawl, some proxies; as for ``response.content``): decoded.
* **latin-1 text, with no marker**: each byte as the character of the same number.
  mitmproxy (``Request.get_text`` falls back to latin-1 when the ``Content-Type`` names no
  charset) and chrome-har (DevTools' ``Network.Request.postData`` is the body's bytes as
  latin-1) write a gzip body so.  :func:`latin1_bytes` says when a text is such bytes.
* ``params`` without ``text``: a form (``application/x-www-form-urlencoded``) is
  form-encoded again; chrome-har also writes a JSON body's top-level members as ``params``,
  which become a JSON object again (an array, when the names are its indexes).

Bounds: the text is cut at :data:`MAX_BODY_CHARS` characters (whole base64 quanta) before
any decoding; at most :data:`MAX_PARAMS` params are read, and their encoding is cut at
:data:`MAX_BODY_CHARS`.
"""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import urlencode

#: ``postData.text`` (before base64 decoding) or the encoded ``params``; longer bodies are cut.
MAX_BODY_CHARS = 1024 * 1024
#: ``postData.params`` read per request (the rest are ignored).
MAX_PARAMS = 1000

#: Control characters that text does not hold and bytes read as latin-1 do: C0 but tab, LF
#: and CR; C1 (U+0080-U+009F).  gzip's magic 1f 8b is two of them.
_CONTROLS = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x80, 0xA0)])


def _compressed_magic(raw: bytes) -> bool:
    """gzip (``1f 8b``) or zlib (``78``, then a byte that makes the header a multiple of 31)."""
    return raw[:2] == b"\x1f\x8b" or (len(raw) > 2 and raw[0] == 0x78 and (raw[0] * 256 + raw[1]) % 31 == 0)


def latin1_bytes(text: str) -> bytes | None:
    """The bytes of ``text`` when it is a body written as latin-1 text, else None.

    The rule (``docs/har.md``): every character is below U+0100, so ``text`` may be bytes
    read as latin-1, and, encoded latin-1,

    1. it starts with the gzip or zlib magic bytes, or
    2. it holds a control character that text does not (:data:`_CONTROLS`: the C1
       controls U+0080-U+009F, or C0 other than tab, LF, CR): a binary body such as
       brotli or a protobuf, or
    3. it has a byte from 0x80 and is valid UTF-8: UTF-8 text that a tool read as latin-1
       (mitmproxy does for ``text/plain`` without a charset), e.g. ``"cafÃ©"``.

    Otherwise (ASCII text, or text whose latin-1 bytes are not UTF-8, such as ``"café"``
    written right) ``text`` is text and None is returned.

    Args:
        text: ``postData.text``, already cut at ``MAX_BODY_CHARS``.
    Returns:
        the bytes (one per character), or None.
    """
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:  # a character beyond U+00FF: text
        return None
    if _compressed_magic(raw) or len(raw.translate(None, _CONTROLS)) < len(raw):
        return raw
    if raw.isascii():
        return None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return raw


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _params_body(params: list, mime: str) -> str:
    """``postData.params`` (the first ``MAX_PARAMS``) as a body: a JSON object when ``mime``
    names JSON (chrome-har), else form-encoded; values that are not strings are JSON text."""
    pairs = [(_text(p.get("name")), p.get("value")) for p in params[:MAX_PARAMS] if isinstance(p, dict)]
    if "json" in mime.lower():
        if [n for n, _v in pairs] == [str(i) for i in range(len(pairs))]:  # an array's indexes
            return json.dumps([v for _n, v in pairs], ensure_ascii=False)[:MAX_BODY_CHARS]
        doc: dict[str, Any] = {}
        for name, value in pairs:  # chrome-har writes an array member as one param per item
            if name in doc:
                doc[name] = (doc[name] if isinstance(doc[name], list) else [doc[name]]) + [value]
            else:
                doc[name] = value
        return json.dumps(doc, ensure_ascii=False)[:MAX_BODY_CHARS]
    return urlencode([(n, v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)) for n, v in pairs]
                     )[:MAX_BODY_CHARS]


def post_body(post: Any) -> str | bytes | None:
    """``request.postData`` -> the body: text, or bytes (base64, or latin-1 text by
    :func:`latin1_bytes`), or None when there is none.

    Args:
        post: the entry's ``request.postData`` (any JSON value; not an object: no body).
    Returns:
        text or bytes of at most ``MAX_BODY_CHARS`` characters / bytes.
    """
    if not isinstance(post, dict):
        return None
    text = post.get("text")
    if isinstance(text, str):
        if len(text) > MAX_BODY_CHARS:
            text = text[:MAX_BODY_CHARS // 4 * 4]  # whole base64 quanta
        if _text(post.get("encoding")).lower() == "base64":
            try:
                return base64.b64decode(text)
            except (binascii.Error, ValueError):
                return text
        raw = latin1_bytes(text)
        return text if raw is None else raw
    params = post.get("params")
    if isinstance(params, list) and params:
        return _params_body(params, _text(post.get("mimeType")))
    return None
