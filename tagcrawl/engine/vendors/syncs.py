"""Cookie- and ID-sync hits, reported apart from pixels (issue 27).

A catalog pattern with ``kind = "sync"`` (``model.Pattern``) recognises the
traffic by which ad-tech parties match their user ids: Google's
``cm.g.doubleclick.net/pixel``, The Trade Desk's ``match.adsrvr.org``,
Xandr's ``getuid``, Adobe Audience Manager's ``<partner>.demdex.net/dest5.html``
and ``ibs:`` calls, LiveRamp's ``rlcdn.com``...  It is tracking (the consent
report counts it) but not a pixel: the crawl lists it in ``syncs``, never in
``marketingPixels``.
"""
from __future__ import annotations

from typing import Any, Iterable

from tagcrawl.engine.vendors.types import Hit

#: The ``Hit.kind`` of a sync.
SYNC = "sync"


def is_sync(hit: Any) -> bool:
    """True for a sync hit (``Hit.kind == "sync"``); anything without a kind is a pixel."""
    return getattr(hit, "kind", "pixel") == SYNC


def syncs_from_hits(hits: Iterable[Hit]) -> list[dict[str, Any]]:
    """Deduplicate the sync hits of ``hits`` (pixel hits are skipped).

    Args:
        hits: hits in capture order (a crawl keeps at most ``bounded.MAX_HITS``;
            the work is one pass, linear in them).
    Returns:
        ``[{"vendor": <display name>, "account_id": <id or None>, "partner":
        <the other party as sent, or None>, "page": <frame_url of the first
        hit>, "timestamp": <epoch ms of the first hit>, "warnings": [...]}]``,
        one per distinct (vendor, account id, partner), in first-seen order.
        A sync without an account id is dropped when the same vendor and
        partner have one with an id (as ``pixels_from_hits`` does).
    """
    hits = [h for h in hits if is_sync(h)]
    with_id = {(h.vendor_key, h.partner) for h in hits if h.account_id is not None}
    out: dict[tuple[str, str | None, str | None], dict[str, Any]] = {}
    for h in hits:
        if h.account_id is None and (h.vendor_key, h.partner) in with_id:
            continue
        key = (h.vendor_key, h.account_id, h.partner)
        sync = out.get(key)
        if sync is None:
            sync = out[key] = {"vendor": h.vendor_name, "account_id": h.account_id, "partner": h.partner,
                               "page": h.frame_url, "timestamp": h.timestamp, "warnings": []}
        for w in h.warnings:
            if w not in sync["warnings"]:
                sync["warnings"].append(w)
    return list(out.values())
