"""The vendor catalog as data: one TOML file per vendor, ``catalog/<key>.toml``.

A file holds the vendor's entry (name, category, aliases, id format, request
patterns) and its test cases (positive, negative and malformed-id requests,
and for some vendors their install snippet for the browser tests).  The
format and the steps to add a vendor are in ``docs/vendors.md`` ("Catalog
files"); ``schema.py`` validates every file when the catalog is loaded.

Match priority (stated here and nowhere else): every file has a
``priority`` integer.  Vendors are tried in ascending ``priority``, ties in
key order, and a vendor's patterns in file order; on top of that the matcher
tries every pattern anchored on a host before any host-less (first-party)
pattern (``matcher.compile_catalog``).  Priority only decides between vendors
whose request shapes overlap: the first one that matches a request takes it.
The bands (thousands) keep related vendors together:

======  ==================================================================
 1000   Google (GA4, Universal Analytics, GTM, Google tag, Ads, Floodlight)
 2000   Adobe Experience Cloud
 3000   advertising platforms' conversion / audience pixels
 4000   programmatic, native, retargeting, ABM and affiliate pixels
 5000   web / product analytics and audience measurement
 6000   tag managers, session replay / experience analytics; 6500 RUM, APM, error tracking
 7000   customer data platforms, marketing automation, experimentation, feature flags
======  ==================================================================
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from tagcrawl.engine.vendors.catalog.schema import CatalogError, Entry, read_entry
from tagcrawl.engine.vendors.model import Vendor

__all__ = ["CATALOG_DIR", "CatalogError", "Entry", "MAX_FILES", "entries", "load_catalog", "read_folder"]

#: Folder of the vendor files.
CATALOG_DIR = Path(__file__).resolve().parent
#: Most vendor files read (the catalog is expected to grow to a few hundred).
MAX_FILES = 2000


def read_folder(folder: Path) -> tuple[Entry, ...]:
    """Every vendor file (``*.toml``) of ``folder``, validated, in match-priority order.

    Args:
        folder: a folder of vendor files (:data:`CATALOG_DIR` for the catalog).
    Returns:
        the :class:`Entry` tuple sorted by ``(priority, key)``.
    Raises:
        CatalogError: more than :data:`MAX_FILES` files, a file breaking the
            format (the message names file and key), or two files sharing a
            key, display name or alias (compared as ``vendors.find_vendor``
            compares names).
    """
    paths = sorted(folder.glob("*.toml"))
    if len(paths) > MAX_FILES:
        raise CatalogError(f"{folder}: {len(paths)} vendor files, more than {MAX_FILES}")
    found = sorted((read_entry(p) for p in paths), key=lambda e: (e.priority, e.vendor.key))
    names: dict[str, str] = {}
    for e in found:  # find_vendor() looks names up this way
        for name in (e.vendor.key, e.vendor.name, *e.vendor.aliases):
            other = names.setdefault(re.sub(r"[\s_\-]+", " ", name.strip().lower()), e.vendor.key)
            if other != e.vendor.key:
                raise CatalogError(f"{e.path.name}: name or alias {name!r} is also {other}'s")
    return tuple(found)


@lru_cache(maxsize=1)
def entries() -> tuple[Entry, ...]:
    """:func:`read_folder` of :data:`CATALOG_DIR`, read once per process (cached).
    Raises CatalogError (see :func:`read_folder`)."""
    return read_folder(CATALOG_DIR)


def load_catalog() -> tuple[Vendor, ...]:
    """The catalog's :class:`Vendor` entries in match-priority order (see module docstring)."""
    return tuple(e.vendor for e in entries())
