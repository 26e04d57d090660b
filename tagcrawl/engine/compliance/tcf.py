"""IAB TCF v2 TC string decoder (v2.0 to v2.2 share the format).

Format: "IAB Tech Lab - Consent string and vendor list formats v2"
(InteractiveAdvertisingBureau/GDPR-Transparency-and-Consent-Framework,
section "TC String Format"): base64url segments joined by ".", the first is
the core string; every field is big-endian, bit numbering left to right.
Only the core segment is decoded (CMP, purposes, vendors, restrictions);
the other segments are counted by type.  No library is used: the one on PyPI
(``iab-tcf`` 0.2.2) is unmaintained and needs a forked bitarray package.
Checked against the IAB's published example string and against strings made
by the IAB's own encoder (``@iabtcf/core``), see ``tests/unit/test_tcf.py``.

Bounded by its output, not only its input: a string is at most
:data:`MAX_LENGTH` characters, and the vendor ids of all its lists together
are counted before any list is built and refused past :data:`MAX_VENDOR_IDS`
(one 4 KB range section can name 48 million ids).
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
SEGMENT_TYPES = {0: "core", 1: "disclosed_vendors", 2: "allowed_vendors", 3: "publisher_tc"}
#: Longest TC string decoded, in characters.  Real strings (a bitfield of about
#: 1,500 vendors for consents and for legitimate interests, publisher
#: restrictions, a disclosed-vendors segment) run to a few thousand; the stream's
#: ``cn`` is capped at 4,096 (``STREAM_CN_MAX``).
MAX_LENGTH = 20_000
#: Most vendor ids one TC string may name, counting vendor consents, vendor
#: legitimate interests and every publisher restriction's vendor list (before
#: duplicates are removed).  A GVL's ``maxVendorId`` is about 1,500, so nothing
#: real is refused; a range section naming more (``1..65535`` repeated) is refused
#: before it is expanded.
MAX_VENDOR_IDS = 10_000


class TCStringError(ValueError):
    """The text is not a TCF v2 TC string (bad base64url, wrong version, too
    short), or is one past a bound (:data:`MAX_LENGTH` characters,
    :data:`MAX_VENDOR_IDS` vendor ids); the message says which."""


@dataclass
class TCString:
    """The decoded core segment of a TC string.

    Attributes:
        version: 2.
        created / last_updated: ISO 8601 UTC (deciseconds in the string, reported to the second).
        cmp_id, cmp_version, consent_screen: the CMP that wrote it.
        consent_language: two letters ("EN"); publisher_cc likewise.
        vendor_list_version, policy_version: GVL version, TCF policy version (4 = v2.2).
        is_service_specific, use_non_standard_texts, purpose_one_treatment: flags.
        special_feature_optins, purpose_consents, purpose_legitimate_interests: ids set to 1.
        vendor_consents, vendor_legitimate_interests: vendor ids set to 1 (sorted).
        publisher_restrictions: ``[{"purpose", "type", "vendors"}]``.
        segments: types of the segments present ("core", "disclosed_vendors", ...).
    """

    version: int
    created: str
    last_updated: str
    cmp_id: int
    cmp_version: int
    consent_screen: int
    consent_language: str
    vendor_list_version: int
    policy_version: int
    is_service_specific: bool
    use_non_standard_texts: bool
    special_feature_optins: list[int]
    purpose_consents: list[int]
    purpose_legitimate_interests: list[int]
    purpose_one_treatment: bool
    publisher_cc: str
    vendor_consents: list[int]
    vendor_legitimate_interests: list[int]
    publisher_restrictions: list[dict] = field(default_factory=list)
    segments: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        """The short form reported in a crawl: ``{cmp_id, cmp_version, policy_version,
        vendor_list_version, purposes (consented ids), legitimate_interests,
        special_features, vendors (consented ids), vendor_count, created, last_updated}``."""
        return {"cmp_id": self.cmp_id, "cmp_version": self.cmp_version, "policy_version": self.policy_version,
                "vendor_list_version": self.vendor_list_version, "purposes": self.purpose_consents,
                "legitimate_interests": self.purpose_legitimate_interests,
                "special_features": self.special_feature_optins, "vendors": self.vendor_consents[:200],
                "vendor_count": len(self.vendor_consents), "created": self.created,
                "last_updated": self.last_updated}


class _Bits:
    """Big-endian bit reader over bytes, with the string's vendor-id allowance.

    The bits are held as a text of ``0``/``1`` (at most 8 per input byte), so a
    read costs its own width, not the length of the string.  Every vendor id
    list (bitfield or ranges) is counted against ``ids_left`` (starting at
    :data:`MAX_VENDOR_IDS`) before it is built.
    """

    def __init__(self, data: bytes):
        self.text = format(int.from_bytes(data, "big"), f"0{len(data) * 8}b") if data else ""
        self.size = len(self.text)
        self.pos = 0
        self.ids_left = MAX_VENDOR_IDS

    def take(self, n: int) -> str:
        if self.pos + n > self.size:
            raise TCStringError(f"TC string too short: needs bit {self.pos + n}, has {self.size}")
        self.pos += n
        return self.text[self.pos - n:self.pos]

    def int(self, n: int) -> int:
        return int(self.take(n), 2) if n else 0

    def bool(self) -> bool:
        return self.int(1) == 1

    def ids(self, n: int) -> list[int]:
        """A bitfield of ``n`` bits: the 1-based ids whose bit is set."""
        bits = self.take(n)
        return [i + 1 for i, bit in enumerate(bits) if bit == "1"]

    def spend(self, count: int) -> None:
        """Count ``count`` vendor ids against the allowance, before they are made."""
        if count > self.ids_left:
            raise TCStringError(f"TC string names more than {MAX_VENDOR_IDS:,} vendor ids (refused before "
                                "expanding them)")
        self.ids_left -= count

    def time(self) -> str:
        return datetime.fromtimestamp(self.int(36) // 10, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def letters(self, n: int) -> str:
        return "".join(chr(ord("A") + self.int(6)) for _ in range(n))

    def ranges(self) -> list[int]:
        """A range section: ``NumEntries`` (12 bits), then per entry ``IsARange``,
        ``StartOrOnlyVendorId`` and, for a range, ``EndVendorId`` (16 bits each).
        The entries are read and their ids counted (:meth:`spend`) before any
        is expanded."""
        entries = []
        for _ in range(self.int(12)):  # at most 4,095 entries, each at least 17 bits of the input
            is_range = self.bool()
            start = self.int(16)
            end = self.int(16) if is_range else start
            if end < start:
                raise TCStringError("bad vendor range")
            entries.append((start, end))
        self.spend(sum(end - start + 1 for start, end in entries))
        ids: list[int] = []
        for start, end in entries:
            ids.extend(range(start, end + 1))
        return ids

    def vendors(self) -> list[int]:
        """A vendor section: ``MaxVendorId`` (16 bits), ``IsRangeEncoding``, then
        a bitfield of ``MaxVendorId`` bits or a range section."""
        max_id = self.int(16)
        if self.bool():
            return self.ranges()
        if self.pos + max_id <= self.size:
            self.spend(self.text.count("1", self.pos, self.pos + max_id))
        return self.ids(max_id)


def _b64(segment: str) -> bytes:
    if not segment or not _BASE64URL.fullmatch(segment):
        raise TCStringError("not base64url")
    try:
        return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    except (ValueError, TypeError) as exc:
        raise TCStringError(f"not base64url: {exc}") from exc


def decode(text: str) -> TCString:
    """Decode a TC string.

    Args:
        text: the TC string (``euconsent-v2`` cookie, ``gdpr_consent``
            parameter, ``tcData.tcString``, stream ``cn``), at most
            :data:`MAX_LENGTH` characters.
    Returns:
        TCString; its vendor id lists hold at most :data:`MAX_VENDOR_IDS` ids
        together.  Work and memory are linear in the length of ``text``.
    Raises:
        TCStringError: not a TCF v2 string, longer than ``MAX_LENGTH``, or
        naming more than ``MAX_VENDOR_IDS`` vendor ids (counted before any list
        is built).  Nothing else: a MemoryError or RecursionError is turned
        into a TCStringError too.
    """
    if not isinstance(text, str) or len(text) > MAX_LENGTH or not text.strip():
        raise TCStringError("empty or oversized")
    try:
        return _decode(text.strip())
    except (MemoryError, RecursionError) as exc:
        raise TCStringError(f"TC string too large to decode ({type(exc).__name__})") from None


def _decode(text: str) -> TCString:
    parts = text.split(".")
    bits = _Bits(_b64(parts[0]))
    version = bits.int(6)
    if version != 2:
        raise TCStringError(f"TC string version {version}, expected 2")
    out = dict(version=version, created=bits.time(), last_updated=bits.time(), cmp_id=bits.int(12),
               cmp_version=bits.int(12), consent_screen=bits.int(6), consent_language=bits.letters(2),
               vendor_list_version=bits.int(12), policy_version=bits.int(6), is_service_specific=bits.bool(),
               use_non_standard_texts=bits.bool(), special_feature_optins=bits.ids(12),
               purpose_consents=bits.ids(24), purpose_legitimate_interests=bits.ids(24),
               purpose_one_treatment=bits.bool(), publisher_cc=bits.letters(2), vendor_consents=bits.vendors(),
               vendor_legitimate_interests=bits.vendors())
    restrictions = []
    for _ in range(bits.int(12)):  # at most 4,095, each at least 20 bits of the input
        purpose, kind = bits.int(6), bits.int(2)
        restrictions.append({"purpose": purpose, "type": kind, "vendors": bits.ranges()})
    segments = ["core"]
    for part in parts[1:]:  # at most MAX_LENGTH / 2
        data = _b64(part)
        segments.append(SEGMENT_TYPES.get(data[0] >> 5, "unknown") if data else "unknown")
    return TCString(**out, publisher_restrictions=restrictions, segments=segments)


def try_decode(text: str | None) -> TCString | None:
    """``decode(text)``, or None when ``text`` is not a TC string or is past
    one of :func:`decode`'s bounds.  Never raises: every path that decodes a
    page's or a stream client's TC string (stream ``cn``, ``euconsent-v2``
    cookie, ``__tcfapi``, ``gdpr_consent``) goes through here."""
    if not text:
        return None
    try:
        return decode(text)
    except (ValueError, OverflowError, MemoryError, RecursionError):  # TCStringError is a ValueError
        return None
