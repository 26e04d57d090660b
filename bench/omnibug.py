"""tagcrawl's vendor matcher on Omnibug's provider test requests (a peer benchmark).

``python -m bench.omnibug [cases.json] [--misses]`` feeds every request of
``/work/shared/peers/omnibug-cases.json`` (243 distinct requests recorded
from the provider unit tests of MisterPhilip/omnibug, each with the provider
Omnibug assigns and its Account column; format in that folder's README.md) to
:func:`tagcrawl.engine.vendors.match_request` and prints:

- ``vendor``: requests whose hits include the vendor Omnibug names (all cases);
- ``vendor+account``: of the cases with an expected account (``status``
  ``scored``), those with a hit of that vendor whose ``account_id`` is the
  expected one: ``exact`` (case-insensitive) and ``equivalent``
  (:func:`same_account`: Omnibug's column joins more than the account, e.g.
  ``AW-1/label``, ``DC-1/type/cat``, ``x.demdex.net``, ``a / b``, a comma
  list given as one hit per id, or the tracking host of a self-hosted Matomo);
- ``sync``: hits reported as ``kind = "sync"`` (ID syncs, kept out of pixels);
- ``lookalikes``: the file's ``negative_pattern_urls`` (URLs Omnibug's tests
  route to no provider or another one) that tagcrawl gives the named vendor.

``--misses`` lists the cases missed.  The file is read once (at most
:data:`MAX_CASES` cases, :data:`MAX_BYTES` bytes).  Not a test: numbers go to
docs/benchmarks.md, never into assertions.
"""
from __future__ import annotations

import json
import re
import sys
from urllib.parse import urlsplit
from pathlib import Path

from tagcrawl.engine.vendors import Request, find_vendor, match_request

CASES = Path("/work/shared/peers/omnibug-cases.json")
#: Most cases / bytes read from the file.
MAX_CASES = 10_000
MAX_BYTES = 32 * 1024 * 1024

#: Omnibug provider keys whose display name is none of the catalog's names.
PROVIDER_KEYS = {
    "ADOBEDTM": "adobe_dtm", "ADOBELAUNCH_CN": "adobe_launch", "DOUBLECLICK": "floodlight",
    "LINKEDINPIXEL": "linkedin", "PINTERESTPIXEL": "pinterest", "TWITTERPIXEL": "twitter",
}


def vendor_key(provider_key: str, provider_name: str) -> str | None:
    """The catalog key of an Omnibug provider, or None when the catalog has no such vendor."""
    if provider_key in PROVIDER_KEYS:
        return PROVIDER_KEYS[provider_key]
    v = find_vendor(provider_name)
    return v.key if v else None


def same_account(expected: str, got: str, host: str) -> bool:
    """Whether tagcrawl's ``got`` names the account of Omnibug's ``expected``
    Account column for a request to ``host`` (see the module docstring)."""
    e, g = re.sub(r"\s*/\s*", "/", expected.strip().lower()), got.strip().lower()
    if not g:
        return False
    if e == g:
        return True
    return e.startswith(g + "/") or e.startswith(g + ".") or e == host


def _request(case: dict) -> Request:
    body = case.get("body")
    return Request(url=case["url"], method=case.get("method") or ("POST" if body else "GET"), post_data=body,
                   resource_type="xhr", frame_url="https://omnibug.example/")


def score(path: Path = CASES) -> dict:
    """Run the benchmark.  Returns ``{"vendor": (ok, n), "exact": (ok, n), "account": (ok, n), "sync": n,
    "lookalikes": (wrong, n), "misses": [str, ...]}``.  Raises ValueError when the
    file is larger than :data:`MAX_BYTES` or holds more than :data:`MAX_CASES` cases."""
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path}: larger than {MAX_BYTES} bytes")
    data = json.loads(path.read_text(encoding="utf-8"))
    cases, negatives = data["cases"], data.get("negative_pattern_urls", [])
    if len(cases) + len(negatives) > MAX_CASES:
        raise ValueError(f"{path}: more than {MAX_CASES} cases")
    vendor_ok = exact = account_ok = accounts = syncs = 0
    misses: list[str] = []
    for case in cases:
        key = vendor_key(case["provider_key"], case["provider"])
        hits = [h for h in match_request(_request(case)) if h.vendor_key == key]
        syncs += sum(1 for h in hits if getattr(h, "kind", "pixel") == "sync")
        vendor_ok += bool(hits)
        expected = case.get("expected_account") or ""
        got = sorted({h.account_id or "" for h in hits})
        if case.get("status") == "scored" and expected:
            accounts += 1
            host = (urlsplit(case["url"]).hostname or "").lower()
            exact += any(a.lower() == expected.lower() for a in got)
            as_list = sorted(x.strip().lower() for x in expected.split(",")) == [a.lower() for a in got]
            if as_list or any(same_account(expected, a, host) for a in got):
                account_ok += 1
            else:
                misses.append(f"{case['provider']}: expected {expected!r}, got {got} {case['url'][:100]}")
        elif not hits:
            misses.append(f"{case['provider']}: no hit {case['url'][:100]}")
    wrong = 0
    for neg in negatives:
        key = vendor_key(neg["provider_key"], neg["provider"])
        routed = vendor_key(neg.get("routed_to") or "", neg.get("routed_to") or "")
        hits = match_request(Request(url=neg["url"]))
        wrong += any(h.vendor_key == key and key != routed for h in hits)
    return {"vendor": (vendor_ok, len(cases)), "exact": (exact, accounts), "account": (account_ok, accounts), "sync": syncs,
            "lookalikes": (wrong, len(negatives)), "misses": misses}


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    result = score(Path(args[0]) if args else CASES)
    print("vendor          %d/%d" % result["vendor"])
    print("vendor+account  %d/%d exact, %d/%d equivalent" % (*result["exact"], *result["account"]))
    print("sync hits       %d" % result["sync"])
    print("lookalikes      %d/%d given the provider's vendor" % result["lookalikes"])
    if "--misses" in argv:
        print("\n".join(result["misses"]))


if __name__ == "__main__":
    main(sys.argv[1:])
