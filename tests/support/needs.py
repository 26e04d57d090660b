"""What a test group needs, and what happens when it is missing.

With ``TAGCRAWL_REQUIRE_ALL=1`` (CI, ``.ci/run``) a missing Chrome, PostgreSQL
or npm fixture package is an error; otherwise the tests that need it are skipped.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REQUIRE_ALL = os.environ.get("TAGCRAWL_REQUIRE_ALL") == "1"


def missing(what: str):
    """Skip the running test (or fail it under ``TAGCRAWL_REQUIRE_ALL=1``)
    because ``what`` (e.g. "PostgreSQL") is not installed.  Never returns."""
    if REQUIRE_ALL:
        pytest.fail(f"{what} is required (TAGCRAWL_REQUIRE_ALL=1) but not installed")
    pytest.skip(f"{what} not installed")


def in_folder(items: list, folder: Path) -> list:
    """The collected ``items`` whose file lies under ``folder`` (a group's directory)."""
    return [item for item in items if folder in item.path.parents]


def mark_folder(items: list, folder: Path, marker: str) -> None:
    """Give every collected test under ``folder`` the marker ``marker`` (e.g. "browser"),
    so ``-m "not browser"`` deselects a whole group without each file repeating it."""
    for item in in_folder(items, folder):
        item.add_marker(getattr(pytest.mark, marker))
