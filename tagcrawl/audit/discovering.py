"""The runner's discovery: one ``Discovery`` per audit per process (docs/audits.md, "Discovery").

``discovery_for(audit, settings)`` keeps at most ``CACHE_MAX`` audits'
``Discovery`` objects (least recently used dropped first, its fetcher closed).
A dropped or never-built one (another process, a restart) is built again: the
queue's unique ``(audit_id, url, scenario)`` keeps what was found before once,
so a rebuilt ``Discovery`` only costs repeated robots.txt fetches.

``keep_problems(audit, discovery)`` stores ``Discovery.problems`` (robots.txt
and sitemaps that could not be read) in ``Audit.summary["problems"]`` (at most
``PROBLEMS_MAX``); the finished summary and the report carry them on.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from tagcrawl.audit.config import config_of
from tagcrawl.audit.discovery import Discovery
from tagcrawl.audit.discovery.fetcher import ProxyFetcher
from tagcrawl.core.audit_models import Audit

#: Audits whose ``Discovery`` a process keeps at once.
CACHE_MAX = 16
#: Problems kept in the audit's summary.
PROBLEMS_MAX = 100

_cache: OrderedDict[str, Discovery] = OrderedDict()
_lock = threading.Lock()  # guards _cache; each Discovery has its own ``guard`` (its sets are not thread-safe)


def discovery_for(audit: Audit, settings) -> Discovery:
    """This process's ``Discovery`` of ``audit`` (built on first use from ``config_of(audit.config)``
    with a ``ProxyFetcher(settings)``); at most ``CACHE_MAX`` are kept (LRU)."""
    with _lock:
        found = _cache.get(audit.id)
        if found is not None:
            _cache.move_to_end(audit.id)
            return found
        discovery = Discovery(config_of(audit.config or {}), settings, ProxyFetcher(settings))
        discovery.guard = threading.Lock()
        _cache[audit.id] = discovery
        while len(_cache) > CACHE_MAX:
            _, old = _cache.popitem(last=False)
            old.fetcher.close()
        return discovery


def forget(audit_id: str) -> None:
    """Drop ``audit_id``'s ``Discovery`` (the audit ended), closing its fetcher."""
    with _lock:
        old = _cache.pop(audit_id, None)
    if old is not None:
        old.fetcher.close()


def use(audit: Audit, settings, work):
    """``work(discovery)`` under the ``Discovery``'s own lock (page jobs of one audit run in several
    threads; other audits are not held up by its fetches)."""
    discovery = discovery_for(audit, settings)
    with discovery.guard:
        return work(discovery)


def keep_problems(audit: Audit, discovery: Discovery) -> None:
    """Merge ``discovery.problems`` into ``audit.summary["problems"]`` (``[{"url", "error"}]``, at most
    ``PROBLEMS_MAX``, no duplicates); the caller commits."""
    if not discovery.problems:
        return
    summary = dict(audit.summary or {})
    kept = list(summary.get("problems") or [])
    for problem in discovery.problems:
        entry = {"url": problem.url, "error": problem.error}
        if entry not in kept and len(kept) < PROBLEMS_MAX:
            kept.append(entry)
    summary["problems"] = kept
    audit.summary = summary
