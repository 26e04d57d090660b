"""Long-tail benchmark (issue 27, Measure): pages built from npm code that tagcrawl has no
catalog entry or CMP rule written for, crawled with each consent action through the service
(``run_crawl``, as bench/real_pages.py does), scored against their truth.

Page sets:
- tuning (default): the long-tail consent pages ``tests/support/web/sites/cl-*`` and any
  SDK page listed in ``tests/support/web/longtail/truth.json`` whose site exists;
- hold-out (``--holdout``): ``tests/support/web/holdout/sites/*`` with their ``truth.json``.
  Run it once, at the end; never tune on its per-page results (they are not printed unless
  ``--per-page``).

Modes (each a full run of the set, accept and reject):
- ``full``: tagcrawl as configured;
- ``catalog only``: the generic beacon detector off (``GENERIC_BEACONS=False`` /
  ``TAGCRAWL_GENERIC_BEACONS=0``);
- ``no autoconsent``: autoconsent's rules off (``AUTOCONSENT=False`` / ``TAGCRAWL_AUTOCONSENT=0``).
A mode whose setting tagcrawl does not have yet is reported as ``n/a`` (the capability is absent).

Scores (tests/support/longtail.py matches a reported pixel to a truth pixel: catalog vendor and
account id, or for a vendor outside the catalog its organisation/host and id):
- pixels: truth pixels found / truth pixels (accept and reject), false pixels (reported with an
  id, matching no truth pixel);
- banners found, refusals verified (reject crawls), violations found / expected and false
  violations (every reported violation entry whose vendor is no expected violation's vendor),
  before-consent entries found / expected (both actions) and false ones;
- crawl seconds: the wall time of every crawl of the mode, one at a time (issue 28's corpus figure).

Run: ``PYTHONPATH=$PWD .venv/bin/python -m bench.long_tail [--holdout] [--modes full,catalog,noauto]``.
Prints a Markdown table for docs/benchmarks.md; writes bench/results/long_tail[_holdout].json.
Bounds: one crawl per page, action and mode (at most 3 x 2 x pages, pages from the truth files).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from pathlib import Path

from tests.support.config import settings
from tests.support.longtail import (false_entries, found, holdout_pages, matches, pixels, truth_vendor_names,
                                    tuning_pages)
from tests.support.web.server import FixtureWeb

SITES = Path(__file__).resolve().parent.parent / "tests" / "support" / "web" / "sites"
RESULTS = Path(__file__).resolve().parent / "results"

#: mode -> (Settings field, environment variable) switched off in it; None: nothing switched.
MODES = {"full": None, "catalog": ("generic_beacons", "TAGCRAWL_GENERIC_BEACONS"),
         "noauto": ("autoconsent", "TAGCRAWL_AUTOCONSENT")}
LABELS = {"full": "full", "catalog": "catalog only", "noauto": "no autoconsent"}


def _has_setting(name: str) -> bool:
    from tagcrawl.core.settings import Settings

    return any(f.name == name for f in dataclasses.fields(Settings))


def _config(web: FixtureWeb, mode: str) -> dict | None:
    """The crawl config of ``mode``; None when its setting does not exist yet."""
    from tagcrawl import create_app

    off = MODES[mode]
    overrides = {"SQLALCHEMY_DATABASE_URI": "sqlite://", "CHROME_ARGS": web.chrome_args(),
                 "ALLOW_PRIVATE_TARGETS": True, "POOL_SIZE": 1}
    for field, env in (v for v in MODES.values() if v):
        os.environ.pop(env, None)
    if off:
        if not _has_setting(off[0]):
            return None
        os.environ[off[1]] = "0"
        overrides[off[0].upper()] = False
    return dict(create_app(overrides).config)


def _crawl(config: dict, host: str, action: str) -> dict:
    from tagcrawl.crawl.service import run_crawl

    outcome = run_crawl(settings(config), {"url": f"https://{host}/", "session_id": None,
                                           "options": {"consentAction": action}})
    return outcome.response


def score_page(truth: dict, answers: dict[str, dict]) -> dict:
    """Counts for one page from its accept and reject answers (``{"accept": response, ...}``)."""
    c = {k: 0 for k in ("pixels", "pixels_found", "false_pixels", "banners", "banners_found", "refusals",
                        "refusals_verified", "violations", "violations_found", "false_violations",
                        "before", "before_found", "false_before")}
    for action, answer in answers.items():
        consent = answer.get("consent") or {}
        reported = answer.get("marketingPixels") or []
        expected = truth[action]["pixels"]
        c["pixels"] += len(expected)
        c["pixels_found"] += len(found(expected, reported))
        c["false_pixels"] += len(false_entries(expected, reported))
        if truth.get("banner"):
            c["banners"] += 1
            c["banners_found"] += bool(consent.get("banner"))
        before = pixels(consent.get("before_consent"))
        c["before"] += len(truth["before_consent"])
        c["before_found"] += len(found(truth["before_consent"], before))
        c["false_before"] += len(false_entries(truth["before_consent"], before))
        violations = consent.get("violations") or []
        want = truth[action]["violations"]
        c["violations"] += len(want)
        c["violations_found"] += len(found(want, pixels(violations)))
        allowed = truth_vendor_names(want)
        c["false_violations"] += sum(1 for v in violations if v.get("vendor") not in allowed
                                     or (v.get("type", "pixel") == "pixel" and v.get("account_id")
                                         and not any(matches(t, v) for t in want)))
        if action == "reject" and truth.get("refusal_verifiable"):
            c["refusals"] += 1
            c["refusals_verified"] += consent.get("verified") is True
    return c


def run(pages: list[dict], modes: list[str], per_page: bool) -> dict:
    """Crawl every page with both actions in every mode; returns {mode: totals or None}."""
    web = FixtureWeb().start()
    results: dict = {}
    try:
        for mode in modes:
            config = _config(web, mode)
            if config is None:
                results[mode] = None
                continue
            totals: dict[str, int] = {"crawl_ms": 0}
            for truth in pages:
                started = time.perf_counter()
                answers = {a: _crawl(config, truth["host"], a) for a in ("accept", "reject")}
                totals["crawl_ms"] += round((time.perf_counter() - started) * 1000)
                counts = score_page(truth, answers)
                if per_page:
                    print(mode, truth["host"], counts, flush=True)
                for key, value in counts.items():
                    totals[key] = totals.get(key, 0) + value
            results[mode] = totals
            from tagcrawl.engine.chrome.pool import shutdown_pools

            shutdown_pools()
    finally:
        for field, env in (v for v in MODES.values() if v):
            os.environ.pop(env, None)
        web.stop()
    return results


def table(results: dict, pages: int) -> str:
    """Markdown: one column per mode."""
    modes = list(results)
    rows = [("pixels found", "pixels_found", "pixels"), ("false pixels", "false_pixels", None),
            ("banners found", "banners_found", "banners"), ("refusals verified", "refusals_verified", "refusals"),
            ("violations found", "violations_found", "violations"), ("false violations", "false_violations", None),
            ("before-consent entries", "before_found", "before"), ("false before-consent", "false_before", None),
            ("crawl seconds, one at a time", "crawl_ms", None)]
    out = [f"| measure ({pages} pages, accept + reject) | " + " | ".join(LABELS[m] for m in modes) + " |",
           "|---|" + "---|" * len(modes)]
    for label, num, den in rows:
        cells = []
        for m in modes:
            t = results[m]
            value = t[num] / 1000 if t is not None and num == "crawl_ms" else t and t[num]
            cells.append("n/a (setting absent)" if t is None else f"{t[num]} of {t[den]}" if den else f"{value:.1f}"
                         if num == "crawl_ms" else str(value))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holdout", action="store_true", help="the hold-out pages (once, at the end)")
    parser.add_argument("--modes", default="full,catalog,noauto", help="comma list of full, catalog, noauto")
    parser.add_argument("--per-page", action="store_true", help="print each page's counts (not for the hold-out)")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes: {sorted(unknown)}")
    if args.holdout:
        pages = holdout_pages()
    else:
        pages = [p for p in tuning_pages() if (SITES / p["host"]).is_dir()]
    results = run(pages, modes, per_page=args.per_page and not args.holdout)
    RESULTS.mkdir(exist_ok=True)
    name = "long_tail_holdout.json" if args.holdout else "long_tail.json"
    (RESULTS / name).write_text(json.dumps({"pages": [p["host"] for p in pages], "results": results}, indent=1))
    print(table(results, len(pages)))


if __name__ == "__main__":
    main()
