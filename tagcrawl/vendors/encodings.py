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
  ``compression=lz64``) -- :func:`lz_decompress`.  Written here rather than
  taken from the ``lzstring`` PyPI package: that package has no output bound
  (an lz-string stream can expand quadratically), rebuilds its alphabet map
  per character, and returns astral characters as surrogate pairs.  The
  algorithm is lz-string 1.5.0's ``_decompress``; ``tests/unit/test_encodings.py``
  checks it against output of the real npm package.
* JSON wrapped in any of the above -- :func:`unwrap_json`.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

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
_LZ64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_LZURI = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
_LZ_MAPS = {a: {ch: i for i, ch in enumerate(a)} for a in (_LZ64, _LZURI)}


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
        not valid in that coding (or brotli is unavailable).
    """
    coding = (coding or "").strip().lower()
    data = bytes(data[:MAX_INPUT])
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
    except Exception:  # noqa: BLE001 - zlib.error, brotli.error: a hostile body is "not compressed"
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
        body: ``Request.post_data``: text, or raw bytes (compressed, binary).
        headers: request headers (``Content-Encoding`` is read).
    Returns:
        the decoded text (UTF-8, invalid bytes replaced), None when there is no body.
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
    return decoded_bytes(bytes(body), headers)[0][:MAX_DECODED].decode("utf-8", "replace")


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
    it is not base64 of UTF-8 text (at least 4 characters)."""
    s = (value or "").strip()
    if len(s) < 4 or len(s) > MAX_INPUT or not _B64.match(s):
        return None
    try:
        raw = base64.b64decode(s.replace("-", "+").replace("_", "/") + "=" * (-len(s.rstrip("=")) % 4),
                               validate=False)
        return raw[:MAX_DECODED].decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None


def lz_decompress(value: str, uri_safe: bool = False, limit: int = MAX_DECODED) -> str | None:
    """lz-string ``decompressFromBase64`` / ``decompressFromEncodedURIComponent``.

    Args:
        value: the compressed text.
        uri_safe: True for ``compressToEncodedURIComponent`` output (``+-$``
            alphabet; a space is read as ``+``).
        limit: most characters produced; past it the value is refused.
    Returns:
        the decompressed string, or None when ``value`` is not a complete,
        valid lz-string stream or would decompress past ``limit``.
    """
    if not isinstance(value, str) or not value or len(value) > MAX_INPUT:
        return None
    alphabet = _LZURI if uri_safe else _LZ64
    if uri_safe:
        value = value.replace(" ", "+")
    table = _LZ_MAPS[alphabet]
    try:
        codes = [table[ch] for ch in value]
    except KeyError:
        return None
    return _lz_decompress(codes, limit)


def _lz_decompress(codes: list[int], limit: int) -> str | None:
    """lz-string 1.5.0 ``_decompress(length, 32, getNextValue)``, bounded."""
    length, state = len(codes), {"val": codes[0], "pos": 32, "index": 1}

    def read(nbits: int) -> int:
        bits, power = 0, 1
        for _ in range(nbits):
            resb = state["val"] & state["pos"]
            state["pos"] >>= 1
            if state["pos"] == 0:
                state["pos"] = 32
                state["val"] = codes[state["index"]] if state["index"] < length else 0
                state["index"] += 1
            if resb:
                bits |= power
            power <<= 1
        return bits

    dictionary: list[str] = ["0", "1", "2"]
    enlarge_in, num_bits = 4, 3
    first = read(2)
    if first == 2:
        return ""
    if first not in (0, 1):
        return None
    w = chr(read(8 if first == 0 else 16))
    dictionary.append(w)
    result, size = [w], 1
    while True:
        if state["index"] > length:
            return None  # ran out of input before the end marker
        c = read(num_bits)
        if c in (0, 1):
            dictionary.append(chr(read(8 if c == 0 else 16)))
            c = len(dictionary) - 1
            enlarge_in -= 1
        elif c == 2:
            return _from_utf16("".join(result))
        if enlarge_in == 0:
            enlarge_in, num_bits = 2 ** num_bits, num_bits + 1
        if c < len(dictionary) and c > 2:
            entry = dictionary[c]
        elif c == len(dictionary):
            entry = w + w[0]
        else:
            return None
        size += len(entry)
        if size > limit:
            return None
        result.append(entry)
        dictionary.append(w + entry[0])
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in, num_bits = 2 ** num_bits, num_bits + 1


def _from_utf16(text: str) -> str:
    """JavaScript strings are UTF-16: join surrogate pairs into characters."""
    try:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    except UnicodeError:
        return text


def _json(text: str | None) -> Any:
    if not text:
        return None
    s = text.strip()
    if not s or s[0] not in "[{":
        return None
    try:
        doc = json.loads(s)
    except Exception:  # noqa: BLE001 - ValueError, RecursionError: "not JSON"
        return None
    return doc if isinstance(doc, (dict, list)) else None


def unwrap_json(value: str | None) -> tuple[Any, str | None]:
    """A JSON object/array carried in ``value``, verbatim or wrapped.

    Tried in order: JSON; base64/base64url JSON; gzip inside base64; lz-string
    ``compressToBase64``; lz-string ``compressToEncodedURIComponent``.
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
        except (binascii.Error, ValueError):
            pass
    for uri_safe, name in ((False, "lz-string"), (True, "lz-string-uri")):
        doc = _json(lz_decompress(s, uri_safe=uri_safe))
        if doc is not None:
            return doc, name
    return None, None
