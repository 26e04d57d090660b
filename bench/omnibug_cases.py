"""tagcrawl's vendor matcher on Omnibug's provider test requests (a peer benchmark).

``python -m bench.omnibug_cases [cases.json] [--misses]`` feeds every request
of ``/work/shared/peers/omnibug-cases.json`` (243 distinct requests recorded
from the provider unit tests of MisterPhilip/omnibug @ ce9a0aa, MIT, each
with the provider Omnibug assigns and the value of its Account column; format
in that folder's README.md) to :func:`tagcrawl.engine.vendors.match_request`
and prints:

- ``vendor``: requests with a hit of the vendor Omnibug names (all cases);
- ``vendor+account``: of the ``scored`` cases (176: those carrying an
  account id), the ones with a hit of that vendor whose ``account_id`` is
  the expected one, case-insensitively (``exact``) or :func:`equivalent`
  (Omnibug's column joins more than the account: ``AW-1/label``,
  ``DC-1/type/cat``, ``<partner>.demdex.net``, ``a / b``, a comma list
  reported as one hit per id, the tracking host of a self-hosted Matomo);
- ``lookalikes``: of the file's ``negative_pattern_urls`` (URLs Omnibug's
  tests route to no provider or to another one), those given the named
  vendor anyway.

``--misses`` lists the missed cases.  Bounds: the file is read once, at most
:data:`MAX_BYTES` bytes and :data:`MAX_CASES` cases (checked before
matching).  A benchmark, not a test: its numbers go to docs/benchmarks.md.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

from tagcrawl.engine.vendors import Request, find_vendor, match_request

CASES = Path("/work/shared/peers/omnibug-cases.json")
#: Most bytes / cases read from the file.
MAX_BYTES = 32 * 1024 * 1024
MAX_CASES = 10_000

#: Omnibug provider keys whose display name is none of the catalog's names or aliases.
PROVIDER_KEYS = {
    "ADOBEDTM": "adobe_dtm", "ADOBELAUNCH_CN": "adobe_launch", "DOUBLECLICK": "floodlight",
    "LINKEDINPIXEL": "linkedin", "PINTERESTPIXEL": "pinterest", "TWITTERPIXEL": "twitter",
}


def vendor_key(provider_key: str, provider: str) -> str | None:
    """Catalog key of an Omnibug provider (``"FACEBOOKPIXEL"``, ``"Facebook Pixel"``), None when not in the catalog."""
    if provider_key in PROVIDER_KEYS:
        return PROVIDER_KEYS[provider_key]
    v = find_vendor(provider)
    return v.key if v else None


def equivalent(expected: str, got: str, host: str) -> bool:
    """True when tagcrawl's account ``got`` names the account of Omnibug's
    Account column ``expected`` for a request to ``host`` (module docstring)."""
    e, g = re.sub(r"\s*/\s*", "/", expected.strip().lower()), got.strip().lower()
    if not g:
        return False
    return e == g or e.startswith(g + "/") or e.startswith(g + ".") or e == host


def _request(case: dict) -> Request:
    body = case.get("body")
    return Request(url=case["url"], method=case.get("method") or ("POST" if body else "GET"), post_data=body,
                   resource_type="xhr", frame_url="https://omnibug.example/")


def score(path: Path = CASES) -> dict:
    """Run the benchmark over the file at ``path``.

    Returns:
        ``{"vendor": (ok, n), "exact": (ok, n), "account": (ok, n),
        "lookalikes": (wrong, n), "misses": [str, ...]}``.
    Raises:
        ValueError: the file is over :data:`MAX_BYTES` or holds over
        :data:`MAX_CASES` cases; OSError / json.JSONDecodeError as read.
    """
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path}: larger than {MAX_BYTES} bytes")
    data = json.loads(path.read_text(encoding="utf-8"))
    cases, negatives = data["cases"], data.get("negative_pattern_urls", [])
    if len(cases) + len(negatives) > MAX_CASES:
        raise ValueError(f"{path}: more than {MAX_CASES} cases")
    vendor_ok = exact = account_ok = accounts = 0
    misses: list[str] = []
    for case in cases:
        key = vendor_key(case["provider_key"], case["provider"])
        hits = [h for h in match_request(_request(case)) if h.vendor_key == key]
        vendor_ok += bool(hits)
        expected = case.get("expected_account") or ""
        got = sorted({h.account_id or "" for h in hits})
        if case.get("status") != "scored" or not expected:
            if not hits:
                misses.append(f"{case['provider']}: no hit {case['url'][:110]}")
            continue
        accounts += 1
        host = (urlsplit(case["url"]).hostname or "").lower()
        exact += any(a.lower() == expected.lower() for a in got)
        as_list = sorted(x.strip().lower() for x in expected.split(",")) == [a.lower() for a in got]
        if as_list or any(equivalent(expected, a, host) for a in got):
            account_ok += 1
        else:
            misses.append(f"{case['provider']}: expected {expected!r}, got {got} {case['url'][:110]}")
    wrong = 0
    for neg in negatives:
        key = vendor_key(neg["provider_key"], neg["provider"])
        routed = vendor_key(neg.get("routed_to") or "", neg.get("routed_to") or "")
        wrong += any(h.vendor_key == key and key != routed for h in match_request(Request(url=neg["url"])))
    return {"vendor": (vendor_ok, len(cases)), "exact": (exact, accounts), "account": (account_ok, accounts),
            "lookalikes": (wrong, len(negatives)), "misses": misses}


def main(argv: list[str]) -> None:
    """Print the scores (``--misses``: and the missed cases)."""
    args = [a for a in argv if not a.startswith("--")]
    result = score(Path(args[0]) if args else CASES)
    print("vendor          %d/%d" % result["vendor"])
    print("vendor+account  %d/%d exact, %d/%d equivalent" % (*result["exact"], *result["account"]))
    print("lookalikes      %d/%d given the provider's vendor" % result["lookalikes"])
    if "--misses" in argv:
        print("\n".join(result["misses"]))


if __name__ == "__main__":
    main(sys.argv[1:])
