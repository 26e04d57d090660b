"""Encodings of what a page sends: compressed bodies, base64 and lz-string
payloads, multipart forms.  Every function is total (never raises) and
bounded: request bodies are hostile, so no decoder writes more than
:data:`MAX_DECODED` bytes/characters (a zip bomb stops there).

* ``Content-Encoding: gzip | deflate | br`` request bodies (and gzip/zlib
  bodies recognised by their magic bytes: PostHog's ``compression=gzip-js``
  sends gzip as ``text/plain`` without the header) -- :func:`body_text`;
  gzip/zlib are stdlib ``zlib``, br is the ``brotli`` package (PyPI).
* base64 / base64url payloads (Mixpanel ``data=``) -- :func:`b64_text`.
* lz-string (``compressToBase64``, ``compressToEncodedURIComponent``; PostHog
  ``compression=lz64``) -- :func:`lz_decompress` (``lzstring.py``).
* JSON wrapped in any of the above -- :func:`unwrap_json`.

Bounds (also in ``docs/security.md``, "Decoders: bounded by output"): input
read at most :data:`MAX_INPUT`, output at most :data:`MAX_DECODED`, JSON
nesting as deep as ``json`` allows (a RecursionError is "not JSON"); a
MemoryError is "not decodable" too.  Each decoder charges the input it reads
to the current decoding budget (``budget.py``) before reading it, and returns
None when refused.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

from tagcrawl.engine.vendors import budget
from tagcrawl.engine.vendors.lzstring import lz_decompress

try:
    import brotli
except ImportError:  # pragma: no cover - listed in requirements.txt
    brotli = None

#: Cap of any decoded output (bytes of a decompressed body, characters of an
#: lz-string payload): 256 KiB, the matcher's body cap (``decode.MAX_BODY``).
MAX_DECODED = 256 * 1024
#: Cap of the encoded input looked at (bytes / characters).
MAX_INPUT = 1024 * 1024

_B64 = re.compile(r"^[A-Za-z0-9+/_-]+={0,2}$")
#: base64 characters that decode to just past MAX_DECODED bytes.
_B64_NEEDED = (MAX_DECODED + 2) // 3 * 4 + 4

__all__ = ["MAX_DECODED", "MAX_INPUT", "b64_text", "body_text", "decoded_bytes", "header", "inflate",
           "looks_base64", "lz_decompress", "unwrap_json"]


def header(headers: dict | None, name: str) -> str | None:
    """Value of header ``name`` (case-insensitive) or None."""
    if not isinstance(headers, dict):
        return None
    low = name.lower()
    return next((str(v) for k, v in headers.items() if str(k).lower() == low), None)


def looks_base64(text: str) -> bool:
    """True when ``text`` uses only the base64 / base64url alphabet."""
    return bool(text) and _B64.match(text) is not None


def inflate(data: bytes, coding: str, limit: int = MAX_DECODED) -> bytes | None:
    """Decompress ``data`` (``coding``: ``gzip``/``x-gzip``, ``deflate``
    (zlib or raw) or ``br``); at most ``limit`` bytes are produced.

    Returns:
        the decompressed bytes (cut at ``limit``), or None when ``data`` is
        not valid in that coding (or brotli is unavailable) or the decoding
        budget refuses its first ``MAX_INPUT`` bytes, the most read.
    """
    coding = (coding or "").strip().lower()
    data = bytes(data[:MAX_INPUT])
    if coding not in ("gzip", "x-gzip", "deflate", "br") or not budget.charge(len(data)):
        return None
    try:
        if coding in ("gzip", "x-gzip"):
            out = zlib.decompressobj(47).decompress(data, limit)
        elif coding == "deflate":
            try:
                out = zlib.decompressobj(15).decompress(data, limit)
            except zlib.error:
                out = zlib.decompressobj(-15).decompress(data, limit)
        elif coding == "br" and brotli is not None:
            out = brotli.Decompressor().process(data, output_buffer_limit=limit)
        else:
            return None
    except Exception:  # noqa: BLE001 - zlib.error, brotli.error, MemoryError: a hostile body is "not compressed"
        return None
    return out[:limit] if out else None


def _sniff(data: bytes) -> str | None:
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if len(data) > 2 and data[0] == 0x78 and (data[0] * 256 + data[1]) % 31 == 0:
        return "deflate"
    return None


def body_text(body: str | bytes | None, headers: dict | None = None) -> str | None:
    """A request body as text, after its ``Content-Encoding``.

    Args:
        body: ``Request.post_data``: text, or raw bytes (compressed, binary);
            the first :data:`MAX_INPUT` bytes are read.
        headers: request headers (``Content-Encoding`` is read).
    Returns:
        the decoded text (UTF-8, invalid bytes replaced; at most
        :data:`MAX_DECODED` bytes of it), None when there is no body.
        Bytes are decompressed when the header names a coding or the bytes
        start with the gzip/zlib magic; a body that fails to decompress is
        returned as decoded text.
    """
    if body is None:
        return None
    if isinstance(body, str):
        return body
    if not isinstance(body, (bytes, bytearray)):
        return None
    return decoded_bytes(bytes(body[:MAX_INPUT]), headers)[0][:MAX_DECODED].decode("utf-8", "replace")


def decoded_bytes(data: bytes, headers: dict | None = None) -> tuple[bytes, str | None]:
    """``(bytes after Content-Encoding, coding used or None)``: the header's
    coding, else one recognised by magic bytes; unchanged when neither
    decompresses."""
    for coding in ((header(headers, "content-encoding") or "").split(",")[-1].strip(), _sniff(data)):
        if coding:
            out = inflate(data, coding)
            if out is not None:
                return out, coding.lower()
    return data, None


def b64_text(value: str) -> str | None:
    """Text of a base64 / base64url value (padding optional), or None when
    it is not base64 of UTF-8 text (at least 4 characters), is longer than
    :data:`MAX_INPUT`, or is refused by the decoding budget.  At most
    :data:`MAX_DECODED` bytes are decoded (only the characters they need are read)."""
    s = (value or "").strip()
    if len(s) < 4 or len(s) > MAX_INPUT or not _B64.match(s):
        return None
    s = s[:_B64_NEEDED]
    if not budget.charge(len(s)):
        return None
    try:
        raw = base64.b64decode(s.replace("-", "+").replace("_", "/") + "=" * (-len(s.rstrip("=")) % 4),
                               validate=False)
        return raw[:MAX_DECODED].decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError, MemoryError):
        return None


def _json(text: str | None) -> Any:
    if not text:
        return None
    s = text.strip()
    if not s or s[0] not in "[{" or not budget.charge(len(s)):
        return None
    try:
        doc = json.loads(s)
    except Exception:  # noqa: BLE001 - ValueError, RecursionError, MemoryError: "not JSON"
        return None
    return doc if isinstance(doc, (dict, list)) else None


def unwrap_json(value: str | None) -> tuple[Any, str | None]:
    """A JSON object/array carried in ``value``, verbatim or wrapped.

    Tried in order: JSON; base64/base64url JSON; gzip inside base64; lz-string
    ``compressToBase64``; lz-string ``compressToEncodedURIComponent``.  The
    first :data:`MAX_INPUT` characters are read; every decoding is bounded by
    :data:`MAX_DECODED` and charged to the decoding budget.
    Returns:
        ``(document, encoding)`` with encoding ``None`` (plain JSON),
        ``"base64"``, ``"gzip+base64"``, ``"lz-string"`` or
        ``"lz-string-uri"``; ``(None, None)`` when none yields JSON.
    """
    if not isinstance(value, str) or not value.strip():
        return None, None
    s = value.strip()[:MAX_INPUT]
    doc = _json(s)
    if doc is not None:
        return doc, None
    text = b64_text(s)
    doc = _json(text)
    if doc is not None:
        return doc, "base64"
    if text is None and _B64.match(s):  # base64 of binary: gzip?
        try:
            raw = base64.b64decode(s.replace("-", "+").replace("_", "/") + "=" * (-len(s.rstrip("=")) % 4))
            inner = inflate(raw, "gzip") if raw[:2] == b"\x1f\x8b" else None
            doc = _json(inner.decode("utf-8", "replace")) if inner else None
            if doc is not None:
                return doc, "gzip+base64"
        except (binascii.Error, ValueError, MemoryError):
            pass
    for uri_safe, name in ((False, "lz-string"), (True, "lz-string-uri")):
        doc = _json(lz_decompress(s, uri_safe=uri_safe))
        if doc is not None:
            return doc, name
    return None, None
