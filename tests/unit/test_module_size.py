"""One concern per module: no Python module of tagcrawl passes 300 lines or
14 KiB (docs/architecture.md).  A module that grows past it is split by
concern, as ``core/schemas/crawl_consent.py`` / ``crawl_pixels.py`` were."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tagcrawl"
MAX_LINES, MAX_BYTES = 300, 14 * 1024


def test_no_module_passes_300_lines_or_14_kib():
    big = []
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        data = path.read_bytes()
        lines = data.count(b"\n")
        if lines > MAX_LINES or len(data) > MAX_BYTES:
            big.append(f"{path.relative_to(PACKAGE)}: {lines} lines, {len(data)} bytes")
    assert not big, f"split these by concern: {big}"
