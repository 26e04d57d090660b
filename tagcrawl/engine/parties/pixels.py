"""Pixels labelled with how they were recognised and who receives them: the
one place that turns hits into the ``marketingPixels`` entries of a crawl
(``crawl/collect.py``) and of a HAR (``engine/har/read.py``)."""
from __future__ import annotations

from tagcrawl.engine.parties.entities import EntityIndex
from tagcrawl.engine.parties.hosts import host_of
from tagcrawl.engine.vendors import pixels_from_hits


def labelled_pixels(hits: list, recognised: str, index: EntityIndex) -> list[dict]:
    """``vendors.pixels_from_hits(hits)``, each with ``recognised``
    (``"catalog"`` or ``"heuristic"``) and ``organisation``: the third-party-web
    organisation of the host of its vendor's first hit, or None.  Linear in
    the hits (at most ``vendors.bounded.MAX_HITS``)."""
    first: dict[str, str] = {}
    for h in hits:
        first.setdefault(h.vendor_name, h.url)
    out = pixels_from_hits(hits)
    for pixel in out:
        entity = index.lookup(host_of(first.get(pixel["vendor"])))
        pixel["recognised"], pixel["organisation"] = recognised, entity.organisation if entity else None
    return out
