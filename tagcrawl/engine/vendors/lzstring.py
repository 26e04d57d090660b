"""lz-string decompression (``decompressFromBase64``,
``decompressFromEncodedURIComponent``), bounded and fast.

The format is lz-string 1.5.0's (npm ``lz-string``, ``_decompress(length, 32,
getNextValue)``); ``tests/unit/test_lzstring.py`` checks this decoder against
the real npm package, character for character.  It is tagcrawl's own rather
than the ``lzstring`` PyPI package's: that one has no output bound (an
lz-string stream expands quadratically), rebuilds its alphabet map per
character, and returns astral characters as surrogate pairs.

Speed: the stream's bits are laid out once, in C (the base64 decoder, a
byte-reversal table, ``int.from_bytes``), so that the decoding loop reads a code
with one shift of a 256-bit window: 256 KB of input cost tens of milliseconds
(``python -m bench.lz_string``), not a second.
"""
from __future__ import annotations

import binascii
import re

from tagcrawl.engine.vendors import budget

#: Most input read, in characters.
MAX_INPUT = 1024 * 1024

_ALPHABET = {False: re.compile(r"[A-Za-z0-9+/=]+"), True: re.compile(r"[A-Za-z0-9+\-$ ]+")}
# lz-string's base64 alphabet is base64's, with "=" as the value 64 (its 6 bits read are 0, as "A"); the
# URI-safe one has "-" for "/" and "$" for 64, and decompressFromEncodedURIComponent reads a space as "+".
_TO_BASE64 = {False: bytes.maketrans(b"=", b"A"), True: bytes.maketrans(b"-$ ", b"/A+")}
# lz-string reads each character's 6 bits high to low and puts them into a code low to high: with every
# byte's bits reversed, the stream read as one little-endian integer has bit k = the k-th bit read.
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
_WINDOW = 32  # bytes of the stream in one window integer


def lz_decompress(value: str, uri_safe: bool = False, limit: int = 256 * 1024) -> str | None:
    """lz-string ``decompressFromBase64`` / ``decompressFromEncodedURIComponent``.

    Args:
        value: the compressed text, at most :data:`MAX_INPUT` characters.
        uri_safe: True for ``compressToEncodedURIComponent`` output (``+-$``
            alphabet; a space is read as ``+``).
        limit: most characters produced (UTF-16 code units, as JavaScript
            counts them); past it the value is refused, before the excess is built.
    Returns:
        the decompressed string (surrogate pairs joined into characters, a lone
        surrogate as U+FFFD), ``""`` for the empty stream, or None when
        ``value`` is longer than ``MAX_INPUT``, not in the alphabet, not a
        complete valid stream, would decompress past ``limit``, or is refused
        by the decoding budget (``budget.py``).  Never raises.

    Work is linear in ``len(value)`` and memory in ``limit``: the loop reads
    at least 3 bits and writes at least one character per turn.
    """
    if not isinstance(value, str) or not value or len(value) > MAX_INPUT:
        return None
    if not _ALPHABET[uri_safe].fullmatch(value) or not budget.charge(len(value)):
        return None
    try:
        raw = value.encode("ascii").translate(_TO_BASE64[uri_safe])
        stream = binascii.a2b_base64(raw + b"A" * (-len(raw) % 4)).translate(_REVERSED)
        text = _decompress(stream, 6 * len(value), limit)
        return _from_utf16(text) if text else text
    except MemoryError:
        return None


def _decompress(stream: bytes, total: int, limit: int) -> str | None:
    """lz-string 1.5.0 ``_decompress`` over ``stream`` (bit k of the
    little-endian integer is the k-th bit read; ``total`` bits are input, the
    rest read as 0, as JavaScript reads past the end), at most ``limit`` characters."""
    from_bytes = int.from_bytes
    win, base, pos = from_bytes(stream[:_WINDOW], "little"), 0, 2  # win: bits [base, base + 8 * _WINDOW)
    first = win & 3
    if first == 2:
        return ""
    if first > 1:
        return None
    width = 8 if first == 0 else 16
    w = chr((win >> 2) & ((1 << width) - 1))
    pos += width
    dictionary = ["", "", "", w]  # codes 0-2 are literal-8, literal-16 and end, never entries
    remember = dictionary.append
    result = [w]
    emit = result.append
    size, dict_size, enlarge_in, num_bits, mask = 1, 4, 4, 3, 7
    while True:
        if pos >= total:
            return None  # the input ran out before the end marker
        off = pos - base
        if off + num_bits + 16 > 8 * _WINDOW:  # room for a code and a 16-bit literal
            base = pos & ~7
            win = from_bytes(stream[base >> 3:(base >> 3) + _WINDOW], "little")
            off = pos - base
        c = (win >> off) & mask
        pos += num_bits
        if c < 2:  # a literal character: 8 or 16 bits
            width = 8 if c == 0 else 16
            remember(chr((win >> (off + num_bits)) & ((1 << width) - 1)))
            pos += width
            c, dict_size, enlarge_in = dict_size, dict_size + 1, enlarge_in - 1
            if enlarge_in == 0:
                enlarge_in, num_bits = 1 << num_bits, num_bits + 1
                mask = (1 << num_bits) - 1
        elif c == 2:
            return "".join(result)
        if c < dict_size:
            entry = dictionary[c]
        elif c == dict_size:
            entry = w + w[0]
        else:
            return None
        size += len(entry)
        if size > limit:
            return None
        emit(entry)
        remember(w + entry[0])
        dict_size += 1
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in, num_bits = 1 << num_bits, num_bits + 1
            mask = (1 << num_bits) - 1


def _from_utf16(text: str) -> str:
    """JavaScript strings are UTF-16: join surrogate pairs into characters."""
    try:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    except UnicodeError:
        return text
