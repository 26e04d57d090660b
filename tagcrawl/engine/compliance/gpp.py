"""GPP strings (IAB Global Privacy Platform) decoded from the string itself,
for a string found where no ``__gpp`` API decodes it: a cookie, a pixel's
``gpp`` parameter.  No PyPI package decodes GPP strings, so this is a small
table-driven decoder.

Format (IAB GPP "Consent String Specification"): ``<header>~<section>~...``.
The header is base64url (``A``-``Z a``-``z 0``-``9 - _``, 6 bits each, most
significant first): Type (6 bits, 3), Version (6 bits, 1), then the section
ids as a Fibonacci-coded range (12-bit count; per entry a group bit, then one
Fibonacci integer, or two for a range, each relative to the previous value).
The n-th section after the header is the n-th id.  The US sections (ids 7 to
27: usnat, usca, usva, usco, usut, usct, usfl, ... usri) are base64url bit
fields split by ``.`` into a core segment and an optional GPC or sensitive
data segment; their layouts are data (``gpp_sections.json``, checked against
the IAB's reference library @iabgpp/cmpapi by tests/unit/test_gpp.py).  uspv1
(id 6) is the 4-character US Privacy string.  TCF sections (2, 5) are named
but not decoded here (a TC string: ``tcf.py``).

:func:`decode` answers what @iabgpp/cmpapi's ``GppModel.toObject()`` gives
for the same string (field names and integer values as the specifications
define them: 0 not applicable, then e.g. for an opt-out 1 opted out, 2 did
not), plus each optional segment's
``...Included`` flag.  It is more forgiving: a malformed section is None and
named in ``error`` while the others are still decoded.

Bounds, each checked before the work: only the first :data:`SCAN_MAX`
characters are split, into at most :data:`MAX_SECTIONS` sections; a header
longer than :data:`HEADER_MAX` characters, or naming more than
:data:`MAX_SECTIONS` ids or an id over :data:`MAX_SECTION_ID`, is refused;
only the characters a section's fields need are turned into bits.  Output:
at most 64 sections of at most 40 values.  Never raises.
"""
from __future__ import annotations

import json
import re
from itertools import zip_longest
from pathlib import Path

_DATA = json.loads(Path(__file__).with_name("gpp_sections.json").read_text())
#: Section id -> its layout, ``[{"fields": [...], "included"?, "absent"?}]`` (gpp_sections.json).
LAYOUTS: dict[int, list[dict]] = {int(k): s["segments"] for k, s in _DATA["sections"].items()}
#: Section id -> API prefix (``7`` -> ``usnat``), every id of the IAB's section list.
NAMES: dict[int, str] = {**{int(k): v for k, v in _DATA["names"].items()},
                         **{int(k): s["name"] for k, s in _DATA["sections"].items()}}
#: Characters of a GPP string split into sections (a tcfeuv2 section is a few KB).
SCAN_MAX = 64 * 1024
#: Section ids a header may name (the IAB's list has 27 today).
MAX_SECTIONS = 64
#: Characters of the header segment (64 ids need about 120).
HEADER_MAX = 512
#: Largest section id accepted (a header naming more is not a GPP header worth decoding).
MAX_SECTION_ID = 4095
USNAT, USPV1 = 7, 6
_BITS = {c: format(i, "06b") for i, c in
         enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")}
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*\Z")
#: Fibonacci numbers 1, 2, 3, 5, ... up to the first over MAX_SECTION_ID.
_FIB = [1, 2]
while _FIB[-1] <= MAX_SECTION_ID:
    _FIB.append(_FIB[-1] + _FIB[-2])


class GppError(ValueError):
    """A GPP header or section that cannot be decoded (the message says why)."""


def _bits(segment: str, chars: int) -> str:
    """The bits of the first ``chars`` characters of a base64url ``segment``
    (the whole segment is checked).  Raises GppError."""
    if not _BASE64URL.match(segment):
        raise GppError("not base64url")
    return "".join(_BITS[c] for c in segment[:chars])


def _fibonacci(bits: str, pos: int) -> tuple[int, int]:
    """One Fibonacci-coded integer at ``pos`` (ends with ``11``): ``(value, next pos)``."""
    end = bits.find("11", pos)
    if end < 0:
        raise GppError("Fibonacci integer without its end")
    if end - pos >= len(_FIB):
        raise GppError(f"section id over {MAX_SECTION_ID}")
    return sum(f for f, bit in zip(_FIB, bits[pos:end + 1]) if bit == "1"), end + 2


def section_ids(header: str) -> list[int]:
    """The section ids a GPP header names, in order.

    Args:
        header: the first ``~``-separated segment (``DBABMA``).
    Returns:
        e.g. ``[2]`` for ``DBABMA``, ``[7, 8]`` for ``DBABrw``.
    Raises:
        GppError: not a version-1 GPP header, longer than :data:`HEADER_MAX`,
            more than :data:`MAX_SECTIONS` ids (refused before the range is
            expanded) or an id over :data:`MAX_SECTION_ID`.
    """
    if len(header) > HEADER_MAX:
        raise GppError(f"header longer than {HEADER_MAX} characters")
    bits = _bits(header, HEADER_MAX)
    if len(bits) < 24 or bits[:6] != "000011" or bits[6:12] != "000001":
        raise GppError("not a GPP version 1 header")
    ids: list[int] = []
    pos, offset = 24, 0
    for _ in range(int(bits[12:24], 2)):
        if pos >= len(bits):
            raise GppError("header shorter than its section count")
        group, pos = bits[pos] == "1", pos + 1
        start, pos = _fibonacci(bits, pos)
        start = offset = start + offset
        end = start
        if group:
            end, pos = _fibonacci(bits, pos)
            end = offset = end + offset
        if end > MAX_SECTION_ID or len(ids) + end - start + 1 > MAX_SECTIONS:
            raise GppError(f"header names more than {MAX_SECTIONS} sections or an id over {MAX_SECTION_ID}")
        ids.extend(range(start, end + 1))
    return ids


def _width(field: list) -> int:
    if field[1] == "boolean":
        return 1
    return field[1] * (field[2] if len(field) > 2 else 1)


def _read(segment: str, fields: list[list], usnat_v1: bool = False) -> dict:
    """The values of one bit-field segment.  ``usnat_v1``: the usnat core
    segment of version 1 (12 sensitive data categories, 2 child consents),
    widened to the version 2 layout as @iabgpp/cmpapi does (UsNatCoreSegment)."""
    need = sum(_width(f) for f in fields)
    bits = _bits(segment, -(-need // 6))
    if usnat_v1:
        bits = bits[:48] + "0" * 8 + bits[48:52] + "00" + bits[52:60]
    if len(bits) < need:
        raise GppError(f"{len(segment)} characters, the fields need {need} bits")
    out, pos = {}, 0
    for field in fields:
        width = _width(field)
        chunk = bits[pos:pos + width]
        if field[1] == "boolean":
            out[field[0]] = chunk == "1"
        elif len(field) > 2:
            out[field[0]] = [int(chunk[i:i + field[1]], 2) for i in range(0, width, field[1])]
        else:
            out[field[0]] = int(chunk, 2)
        pos += width
    return out


def decode_section(section_id: int, text: str) -> dict:
    """One US section (ids in :data:`LAYOUTS`) as ``{field: value}``.  Raises GppError."""
    layout = LAYOUTS[section_id]
    parts = text.split(".", len(layout))
    if not parts[0]:
        raise GppError("blank section")
    legacy = section_id == USNAT and len(parts[0]) in (10, 11)  # usnat v1: 60 bits (66 padded)
    out = _read(parts[0], layout[0]["fields"], usnat_v1=legacy)
    for segment, part in zip_longest(layout[1:], parts[1:len(layout)]):
        if part is None:  # the library's defaults (lists copied: the layout's own are shared)
            out.update({k: list(v) if isinstance(v, list) else v for k, v in segment["absent"].items()})
        else:
            out.update(_read(part, segment["fields"]))
        out[segment["included"]] = part is not None
    if section_id == USNAT and out.get("Version") == 1:  # as UsNatCoreSegment.getFieldValue
        out["SensitiveDataProcessing"] = out["SensitiveDataProcessing"][:12]
        out["KnownChildSensitiveDataConsents"] = out["KnownChildSensitiveDataConsents"][:2]
    return out


def _uspv1(text: str) -> dict:
    """The uspv1 section as @iabgpp/cmpapi reads it: 4 characters, Version a digit."""
    if len(text) != 4:
        raise GppError(f"{len(text)} characters, not 4")
    return {"Version": int(text[0]) if text[0].isdigit() else None, "Notice": text[1], "OptOutSale": text[2],
            "LspaCovered": text[3]}


def decode(text: str) -> dict:
    """A GPP string decoded.

    Args:
        text: a GPP string (``DBABrw~CAAQAAAAAABA.QA~BAgAAABA.QA``); only its
            first :data:`SCAN_MAX` characters are read.
    Returns:
        ``{"section_ids": [int] | None, "sections": {name: {field: value} |
        None}, "error": str | None}``: ``section_ids`` as the header names
        them (None when the header cannot be read); ``sections`` keyed by API
        prefix (an id without one by its number), None for a section that is
        not decoded here (TCF) or is malformed; ``error`` says what could not
        be read (``"header: ..."``, ``"usca: ..."``, a count mismatch).
        Never raises.
    """
    if not isinstance(text, str) or not text.startswith("DB"):
        return {"section_ids": None, "sections": {}, "error": "not a GPP string (no DB header)"}
    try:
        return _decode(text)
    except (GppError, MemoryError, RecursionError) as exc:
        return {"section_ids": None, "sections": {}, "error": f"header: {exc}"}


def _decode(text: str) -> dict:
    parts = text[:SCAN_MAX].split("~", MAX_SECTIONS + 1)[:MAX_SECTIONS + 1]
    ids = section_ids(parts[0])
    errors = []
    total = text.count("~")
    if total != len(ids):
        errors.append(f"the header names {len(ids)} sections, the string has {total}")
    sections: dict = {}
    for sid, segment in zip(ids, parts[1:]):
        name = NAMES.get(sid, str(sid))
        sections[name] = None
        try:
            if sid == USPV1:
                sections[name] = _uspv1(segment)
            elif sid in LAYOUTS:
                sections[name] = decode_section(sid, segment)
        except GppError as exc:
            errors.append(f"{name}: {exc}")
    return {"section_ids": ids, "sections": sections, "error": "; ".join(errors[:8]) or None}
