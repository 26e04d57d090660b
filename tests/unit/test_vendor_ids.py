"""Malformed ids, vendor by vendor (issue 19): every recorded request (the
positive cases of the catalog files, ``tests/support/vendor_cases.py``) is
replayed with its id one character short, with a test id and with a
placeholder.  The request is still recognised; the id is
reported exactly as sent and flagged, never dropped.  Validation rules see
the same hits."""
from __future__ import annotations

import base64
from urllib.parse import quote

import pytest

from tagcrawl.crawl.rules import evaluate_rules
from tagcrawl.engine.vendors import (
    _COMPILED,
    Request,
    find_vendor,
    match_request,
    pixels_from_hits,
)
from tagcrawl.engine.vendors.matcher import _match_one
from tagcrawl.engine.vendors.request_context import RequestContext

from tests.support.vendor_cases import POSITIVE, Case

PLACEHOLDER = "XXXXXXXXXX"


def _raw_forms(case: Case, account: str) -> list[str]:
    """How ``account`` appears in the request (canonical ids add a prefix or fold case)."""
    forms = [account]
    for prefix in ("AW-", "DC-"):
        if account.startswith(prefix):
            forms.append(account[len(prefix):])
    forms += [account.lower(), account.upper()]
    return forms


def _replace(case: Case, old: str, new: str) -> Request | None:
    """The case's request with ``old`` replaced by ``new`` wherever it is sent
    (URL, body, Basic auth user); None when ``old`` is not found verbatim."""
    url, body, headers = case.url, case.body, dict(case.headers)
    found = old in url or (body is not None and old in body)
    url = url.replace(old, new)
    body = body.replace(old, new) if body is not None else None
    auth = headers.get("Authorization", "")
    if auth.startswith("Basic "):
        user = base64.b64decode(auth[6:]).decode()
        if old in user:
            found = True
            headers["Authorization"] = "Basic " + base64.b64encode(user.replace(old, new).encode()).decode()
    if not found:
        return None
    return Request(url=url, method=case.http_method, post_data=body, headers=headers, resource_type="xhr",
                   frame_url="https://shop.example/")


def _cases():
    seen = set()
    for case in POSITIVE:
        accounts = {a for a in case.ids if a is not None}
        if len(accounts) != 1 or case.vendor in seen:
            continue
        [account] = accounts
        auth = case.headers.get("Authorization", "")
        user = base64.b64decode(auth[6:]).decode() if auth.startswith("Basic ") else ""  # other schemes: TD1 <key>
        raw = next((f for f in _raw_forms(case, account) if f in case.url or (case.body or "").find(f) >= 0
                    or f in user), None)
        if raw is None or "/" in raw or "," in raw:
            continue
        seen.add(case.vendor)
        yield pytest.param(case, raw, id=case.vendor)


CASES = list(_cases())


def test_most_vendors_are_covered():
    assert len(CASES) >= 90


def _hits_of(case: Case, req: Request):
    return [h for h in match_request(req) if h.vendor_key == case.vendor]


_FORMAT_WARNINGS = ("characters;", "does not match the format", "prefix of")


def _first_party_shape(case: Case) -> bool:
    """True when the case is recognised by a host-less (first-party) pattern
    whose ``require`` reads the id: without a vendor host the id's form is the
    request's shape (``matomo.php?idsite=<digits>``), so a malformed one is
    not recognised there (on the vendor's own host it is)."""
    ctx = RequestContext(Request(url=case.url, method=case.http_method, post_data=case.body, headers=case.headers))
    pattern = next(c for c in _COMPILED if c.vendor.key == case.vendor and _match_one(c, ctx))
    return pattern.host is None and bool({s.arg for s, _ in pattern.require} & {s.arg for s in pattern.ids})


@pytest.mark.parametrize("case,raw", CASES)
def test_id_one_character_short(case, raw):
    if len(raw) < 2 or _first_party_shape(case):
        pytest.skip("nothing left to send, or the id's form is the first-party shape")
    short = raw[:-1]
    hits = _hits_of(case, _replace(case, raw, short))
    assert hits, f"{case.vendor}: dropped {short!r}"
    fmt = find_vendor(case.vendor).id_format
    canonical = fmt.normalise(short) if fmt is not None else None
    assert hits[0].account_id == (canonical or short)
    format_flags = [w for w in hits[0].warnings if any(f in w for f in _FORMAT_WARNINGS)]
    assert bool(format_flags) == (fmt is not None and canonical is None), hits[0].warnings


def _shape_in_id(case: Case, raw: str) -> bool:
    """True when the id is part of the URL path or host: there the id's
    characters are part of the URL's shape (``/signals/config/<digits>``), so
    a placeholder of other characters is no longer the vendor's URL."""
    head = case.url.split("?", 1)[0]
    return raw in head or quote(raw) in head


@pytest.mark.parametrize("case,raw", CASES)
@pytest.mark.parametrize("sent,warning", [("TEST-1234", "account id looks like a test id"),
                                          (PLACEHOLDER, "account id looks like a placeholder")])
def test_test_id_and_placeholder_are_reported_and_flagged(case, raw, sent, warning):
    if _shape_in_id(case, raw) or _first_party_shape(case):
        pytest.skip("the id's characters are part of the request's shape (URL path/host, first-party require)")
    fmt = find_vendor(case.vendor).id_format
    if fmt is not None and fmt.prefix_required:
        sent = fmt.prefix + sent  # the prefix tells vendors apart (G- GA4, UA- Universal Analytics)
    hits = _hits_of(case, _replace(case, raw, sent))
    assert hits, f"{case.vendor}: dropped {sent!r}"
    assert hits[0].account_id.upper().startswith(sent.upper())  # RTB House sends "<id>_<event>" whole
    assert warning in hits[0].warnings
    [pixel] = pixels_from_hits(hits[:1])
    assert warning in pixel["warnings"]


def test_pixel_rule_matches_a_flagged_id():
    [hit] = match_request(Request(url="https://analytics.tiktok.com/api/v2/pixel", method="POST",
                                  post_data='{"event":"Purchase","context":{"pixel":{"code":"C1A2B3C4D5E6F7G8H9"}}}'))
    assert hit.warnings == ("account id has 18 characters; TikTok pixel codes have 20",)
    rule = {"rule_id": "0f8fad5b-d9cb-469f-a165-70867728950e", "vendor": "TikTok", "key": "account_id",
            "value": "C1A2B3C4D5E6F7G8H9", "condition": "OR", "rule_type": "Pixel"}
    assert evaluate_rules([rule], [hit], [], [], crawl_succeeded=True) == [
        {"rule_id": rule["rule_id"], "success": True}]
