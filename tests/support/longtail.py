"""Truth of the long-tail pages and how a crawl's answer is matched against it
(``tests/browser/test_long_tail_cmps.py``, ``bench/long_tail.py``).

A truth file (``tests/support/web/longtail/truth.json``: ``{"pages": [page, ...]}``; a hold-out
page's ``truth.json`` is one page) describes a page as::

    {"host": "cl-x.example", "banner": true, "refusal_verifiable": true,
     "before_consent": [pixel, ...],
     "accept": {"pixels": [pixel, ...], "violations": []},
     "reject": {"pixels": [pixel, ...], "violations": [pixel, ...]}}

where a pixel is ``{"vendor": <catalog key>, "account": <id>}`` for a vendor of the catalog, or
``{"organisation": <name>, "host": <beacon host>, "account": <id>}`` for one outside it (found
by the generic beacon detector, ``"recognised": "heuristic"``, when it is).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

WEB = Path(__file__).parent / "web"
TUNING_TRUTH = WEB / "longtail" / "truth.json"
HOLDOUT_SITES = WEB / "holdout" / "sites"


def tuning_pages() -> list[dict]:
    """The long-tail tuning pages' truth, in file order."""
    return json.loads(TUNING_TRUTH.read_text(encoding="utf-8"))["pages"]


def holdout_pages() -> list[dict]:
    """The hold-out pages' truth (``holdout/sites/<host>/truth.json``), by host."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(HOLDOUT_SITES.glob("*/truth.json"))]


@lru_cache(maxsize=1)
def vendor_names() -> dict[str, str]:
    """Catalog key -> display name (the name the answer uses)."""
    from tagcrawl.engine.vendors.catalog import entries

    return {e.vendor.key: e.vendor.name for e in entries()}


def _lower(value) -> str:
    return str(value or "").lower()


def matches(truth: dict, entry: dict) -> bool:
    """Whether an answer's pixel entry (``marketingPixels[]`` or a ``consent`` list entry:
    ``vendor`` display name, ``account_id``, and for a heuristic pixel ``organisation``/``host``
    when the answer has them) is the truth pixel: same account id, and the same catalog vendor,
    or for a vendor outside the catalog the same organisation or beacon host."""
    if entry.get("account_id") != truth["account"]:
        return False
    if "vendor" in truth:
        return entry.get("vendor") == vendor_names().get(truth["vendor"], truth["vendor"])
    org, host = _lower(truth.get("organisation")), _lower(truth.get("host"))
    said = {_lower(entry.get(k)) for k in ("organisation", "vendor", "host")} - {""}
    return bool(org and org in said) or bool(host and any(s == host or host.endswith("." + s) or s in host
                                                          for s in said if "." in s))


def pixels(entries) -> list[dict]:
    """The pixel entries of a ``consent`` list (``before_consent``, ``violations``)."""
    return [e for e in entries or [] if e.get("type", "pixel") == "pixel"]


def found(truth_pixels: list[dict], entries: list[dict]) -> list[dict]:
    """The truth pixels that some entry matches."""
    return [t for t in truth_pixels if any(matches(t, e) for e in entries)]


def false_entries(truth_pixels: list[dict], entries: list[dict]) -> list[dict]:
    """Entries with an account id that match no truth pixel (an entry without an id, e.g. a
    library load of a truth vendor, is not a pixel claim and is not counted)."""
    return [e for e in entries if e.get("account_id") and not any(matches(t, e) for t in truth_pixels)]


def truth_vendor_names(truth_pixels: list[dict]) -> set[str]:
    """Names an answer may use for these truth pixels' vendors (catalog name or organisation)."""
    return {vendor_names().get(t["vendor"], t["vendor"]) if "vendor" in t else t.get("organisation")
            for t in truth_pixels}
