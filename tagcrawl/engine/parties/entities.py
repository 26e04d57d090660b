"""Organisations of third-party hosts: third-party-web's entity list.

Data: ``third-party-web`` (MIT, Patrick Hulce), installed as a pinned npm
dependency of the service (``npm/package.json``; docs/third-parties.md says how
to update it), read from ``<npm dir>/third-party-web/dist/entities.json``: a
JSON list of entities ``{name, company?, category, domains: [host | "*.host"],
...}`` (the package's ``lib/create-entity-finder-api.js`` is the reference of
the matching below).  Nothing of it is copied into this repository.

The file is read once per process and per directory (:func:`load`, lazy,
cached); a missing or unreadable file is logged once as a warning and gives an
empty :class:`EntityIndex` (``loaded`` False), never an exception.

Bounds (enforced while reading, before the work): the file at most
:data:`FILE_MAX_BYTES`; at most :data:`ENTITIES_MAX` entities and
:data:`DOMAINS_MAX` domain patterns in all (the rest ignored, with a warning);
a lookup walks at most :data:`LABELS_MAX` labels of a host of at most
:data:`HOST_MAX` characters.
"""
from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

#: The largest entities.json read (0.30.0's is 282 KB).
FILE_MAX_BYTES = 16 * 1024 * 1024
#: Entities kept (0.30.0 has 2,143).
ENTITIES_MAX = 20_000
#: Domain patterns kept in all (0.30.0 has 3,132).
DOMAINS_MAX = 100_000
#: Characters of a host looked up (DNS names are at most 253).
HOST_MAX = 253
#: Labels of a host walked for ``*.x`` patterns.
LABELS_MAX = 16
#: Characters kept of an entity's name, company and category.
NAME_MAX = 200

#: Path of the dataset below the npm directory.
DATASET = Path("third-party-web") / "dist" / "entities.json"
#: The service's own npm directory (``npm/node_modules`` of the checkout), unless ``Settings.npm_dir``.
DEFAULT_NPM_DIR = Path(__file__).resolve().parents[3] / "npm" / "node_modules"


@dataclass(frozen=True)
class Entity:
    """One third-party-web entity.

    Attributes:
        name: the entity (product) name, e.g. "Google Analytics".
        organisation: its ``company`` when the dataset names one, else ``name`` (as the package's API does).
        category: third-party-web's category: ad, analytics, cdn, consent-provider, content,
            customer-success, hosting, marketing, other, social, tag-manager, utility, video.
    """

    name: str
    organisation: str
    category: str


@dataclass
class EntityIndex:
    """Host -> :class:`Entity` lookups over one loaded dataset.

    Attributes:
        loaded: the dataset was read (False: missing or unreadable; every lookup is None).
        version: the package's version (its ``package.json``), or None.
        exact: host -> entity for patterns without ``*.``.
        wildcard: suffix -> entity for ``*.<suffix>`` patterns (they match the suffix itself too).
    """

    loaded: bool = False
    version: str | None = None
    exact: dict[str, Entity] = field(default_factory=dict)
    wildcard: dict[str, Entity] = field(default_factory=dict)

    def lookup(self, host: str | None) -> Entity | None:
        """The entity of ``host`` (lower-case, no port), or None.

        Exact host first, then ``*.`` patterns from the host itself up to its
        last two labels (longest suffix first).  O(:data:`LABELS_MAX`) dict
        lookups; a host longer than :data:`HOST_MAX` is looked up by its tail.
        """
        if not host or not self.loaded:
            return None
        host = host.strip().lower().rstrip(".")[-HOST_MAX:]
        found = self.exact.get(host)
        if found is not None:
            return found
        labels = host.split(".")[-LABELS_MAX:]
        for start in range(0, max(len(labels) - 1, 1)):
            found = self.wildcard.get(".".join(labels[start:]))
            if found is not None:
                return found
        return None


def _text(value, default: str = "") -> str:
    return value[:NAME_MAX] if isinstance(value, str) and value else default


def parse(entries: object) -> tuple[dict[str, Entity], dict[str, Entity], int]:
    """``(exact, wildcard, patterns left out)`` from the JSON list of entities.

    Entries that are not objects, or lack a name or domains, are skipped; the
    first entity to claim a pattern keeps it.  Bounded by :data:`ENTITIES_MAX`
    and :data:`DOMAINS_MAX` (counted before each is added)."""
    exact: dict[str, Entity] = {}
    wildcard: dict[str, Entity] = {}
    dropped = patterns = 0
    for entry in entries[:ENTITIES_MAX] if isinstance(entries, list) else ():
        if not isinstance(entry, dict) or not _text(entry.get("name")) or not isinstance(entry.get("domains"), list):
            continue
        name = _text(entry.get("name"))
        entity = Entity(name=name, organisation=_text(entry.get("company"), name),
                        category=_text(entry.get("category"), "other"))
        for domain in entry["domains"]:
            if not isinstance(domain, str) or not domain:
                continue
            if patterns >= DOMAINS_MAX:
                dropped += 1
                continue
            patterns += 1
            domain = domain.strip().lower()[:HOST_MAX]
            table, key = (wildcard, domain[2:]) if domain.startswith("*.") else (exact, domain)
            table.setdefault(key, entity)
    if isinstance(entries, list) and len(entries) > ENTITIES_MAX:
        dropped += len(entries) - ENTITIES_MAX
    return exact, wildcard, dropped


def _version(npm_dir: Path) -> str | None:
    try:
        with open(npm_dir / "third-party-web" / "package.json", "rb") as fh:
            meta = json.loads(fh.read(64 * 1024))
    except (OSError, ValueError):
        return None
    version = meta.get("version") if isinstance(meta, dict) else None
    return version[:40] if isinstance(version, str) else None


def read(npm_dir: Path) -> EntityIndex:
    """Read the dataset under ``npm_dir`` (uncached; see :func:`load`).  Never raises:
    a missing, oversized or malformed file gives an empty index and a warning."""
    path = npm_dir / DATASET
    try:
        size = os.path.getsize(path)
        if size > FILE_MAX_BYTES:
            raise ValueError(f"{size} bytes, more than {FILE_MAX_BYTES}")
        with open(path, "rb") as fh:
            entries = json.loads(fh.read(FILE_MAX_BYTES + 1))
    except (OSError, ValueError) as exc:
        log.warning("third-party-web dataset not available (%s: %s): thirdParties will be empty; "
                    "install it with `npm ci --prefix npm` (docs/third-parties.md)", path, exc)
        return EntityIndex()
    exact, wildcard, dropped = parse(entries)
    if dropped:
        log.warning("third-party-web dataset %s: %d entries or patterns past the bounds left out", path, dropped)
    return EntityIndex(loaded=bool(exact or wildcard), version=_version(npm_dir), exact=exact, wildcard=wildcard)


_CACHE: dict[str, EntityIndex] = {}
_LOCK = threading.Lock()


def load(npm_dir: str | os.PathLike | None = None) -> EntityIndex:
    """The index of the dataset under ``npm_dir`` (``Settings.npm_dir``; None:
    :data:`DEFAULT_NPM_DIR`), read on first use and kept for the process.
    Never raises (see :func:`read`)."""
    where = Path(npm_dir) if npm_dir else DEFAULT_NPM_DIR
    key = str(where)
    with _LOCK:
        index = _CACHE.get(key)
        if index is None:
            index = _CACHE[key] = read(where)
        return index
