"""TC strings built bit by bit (this module holds no test): valid core segments
of any shape, including the hostile ones no CMP writes (a range section of
``1..65535`` repeated, a bitfield of 65,535 set bits), for the bounds of
``tagcrawl/engine/compliance/tcf.py``.

Layout: "IAB Tech Lab - Consent string and vendor list formats v2", section
"TC String Format" (core segment; every field big-endian).
"""
from __future__ import annotations

import base64

MAX_ID = 65535


class BitWriter:
    """Big-endian bit writer: ``add(value, width)``, then ``base64url()``."""

    def __init__(self):
        self.bits: list[str] = []

    def add(self, value: int, width: int) -> BitWriter:
        self.bits.append(format(value, f"0{width}b") if width else "")
        return self

    def ranges(self, entries: list[tuple[int, int]]) -> BitWriter:
        """A range section: NumEntries, then IsARange / StartOrOnlyVendorId / EndVendorId."""
        self.add(len(entries), 12)
        for start, end in entries:
            self.add(int(start != end), 1).add(start, 16)
            if start != end:
                self.add(end, 16)
        return self

    def bitfield(self, ids: list[int], max_id: int) -> BitWriter:
        chosen = set(ids)
        self.bits.append("".join("1" if i in chosen else "0" for i in range(1, max_id + 1)))
        return self

    def base64url(self) -> str:
        text = "".join(self.bits)
        text += "0" * (-len(text) % 8)
        data = int(text, 2).to_bytes(len(text) // 8, "big") if text else b""
        return base64.urlsafe_b64encode(data).decode().rstrip("=")


def core(consents=("ranges", []), legitimate=("ranges", []), restrictions=()) -> BitWriter:
    """A core segment: CMP 300 version 2, created 2025-01-01, language EN,
    GVL 100, policy 4, purposes 1 and 2, publisher country FR, then

    Args:
        consents / legitimate: ``("ranges", [(start, end), ...])`` or
            ``("bitfield", [id, ...], max_id)``.
        restrictions: ``[(purpose, type, [(start, end), ...]), ...]``.
    """
    w = BitWriter().add(2, 6)
    deciseconds = 1735689600 * 10
    w.add(deciseconds, 36).add(deciseconds, 36).add(300, 12).add(2, 12).add(1, 6)
    w.add(ord("E") - 65, 6).add(ord("N") - 65, 6).add(100, 12).add(4, 6).add(1, 1).add(0, 1)
    w.add(0, 12).add(0b11 << 22, 24).add(0, 24).add(0, 1).add(ord("F") - 65, 6).add(ord("R") - 65, 6)
    for section in (consents, legitimate):
        if section[0] == "ranges":
            entries = section[1]
            w.add(max((end for _, end in entries), default=0), 16).add(1, 1).ranges(entries)
        else:
            w.add(section[2], 16).add(0, 1).bitfield(section[1], section[2])
    w.add(len(restrictions), 12)
    for purpose, kind, entries in restrictions:
        w.add(purpose, 6).add(kind, 2).ranges(entries)
    return w


def range_bomb(length: int = 4096) -> str:
    """A TC string of at most ``length`` characters whose vendor-consent range
    section is the range ``1..65535`` as many times as fits (about 740 times in
    4,096 characters: 48 million ids, 1.9 GB as a Python list)."""
    header = len("".join(core().bits))
    entries = (length * 6 - header) // 33
    return core(("ranges", [(1, MAX_ID)] * entries)).base64url()
