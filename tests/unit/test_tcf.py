"""The TC string decoder (tagcrawl/engine/compliance/tcf.py) against the IAB's
published example and against strings made by the IAB's own encoder
(@iabtcf/core, run with node on the pinned npm package)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tagcrawl.engine.compliance import tcf

from tests.support import peak_rss
from tests.support.tc_strings import MAX_ID, core, range_bomb
from tests.support.web import npm_cdn
from tests.support.web.compliance_pages import fixture_gvl

#: "IAB Tech Lab - Consent string and vendor list formats v2", section "TC String Format".
IAB_EXAMPLE = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"
VECTORS = Path(__file__).parents[1] / "support" / "web" / "compliance" / "tcf_vectors.js"


def test_iab_published_example():
    """Values as @iabtcf/core 1.5.6 decodes the same string."""
    d = tcf.decode(IAB_EXAMPLE)
    assert (d.version, d.cmp_id, d.cmp_version, d.consent_screen) == (2, 880, 0, 0)
    assert (d.consent_language, d.publisher_cc, d.vendor_list_version, d.policy_version) == ("EN", "DE", 48, 2)
    assert d.created == d.last_updated == "2025-06-03T00:00:00Z"
    assert d.purpose_consents == [] and d.vendor_consents == [1, 2, 3, 4]
    assert d.segments == ["core", "disclosed_vendors", "publisher_tc"]


@pytest.mark.parametrize("bad", ["", "not a tc string!", "BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA", "CQ", "C" * 30001])
def test_malformed_strings_raise_or_give_none(bad):
    with pytest.raises(tcf.TCStringError):
        tcf.decode(bad)
    assert tcf.try_decode(bad) is None


CASES = [
    dict(name="all", purposes=list(range(1, 12)), vendors=[1, 2, 755, 793], legitimateVendors=[],
         specialFeatures=[1, 2], cmpId=300, cmpVersion=2, consentScreen=1, publisherCountryCode="FR"),
    dict(name="none", purposes=[], vendors=[], legitimateVendors=[], specialFeatures=[], cmpId=10, cmpVersion=7,
         consentScreen=3, publisherCountryCode="DE"),
    dict(name="some", purposes=[1, 3, 9], vendors=[755], legitimateVendors=[2], specialFeatures=[2], cmpId=4095,
         cmpVersion=4095, consentScreen=63, publisherCountryCode="ZZ"),
]


@pytest.fixture(scope="module")
def vectors(npm_packages):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    cases = [dict(c, gvl=fixture_gvl()) for c in CASES]
    done = subprocess.run([node, str(VECTORS)], input=json.dumps(cases), capture_output=True, text=True, check=True,
                          env=dict(os.environ, NODE_PATH=str(npm_cdn.NPM_ROOT)), timeout=60)
    return json.loads(done.stdout)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c["name"] for c in CASES])
def test_strings_from_the_iab_encoder_decode_as_it_decodes_them(vectors, index):
    vector = vectors[index]
    want, got = vector["decoded"], tcf.decode(vector["tcString"])
    assert (got.cmp_id, got.cmp_version, got.consent_screen, got.policy_version, got.vendor_list_version) == (
        want["cmpId"], want["cmpVersion"], want["consentScreen"], want["policyVersion"], want["vendorListVersion"])
    assert (got.consent_language, got.publisher_cc, got.is_service_specific) == (
        want["consentLanguage"], want["publisherCountryCode"], want["isServiceSpecific"])
    assert got.purpose_consents == want["purposeConsents"]
    assert got.purpose_legitimate_interests == want["purposeLegitimateInterests"]
    assert got.vendor_consents == want["vendorConsents"]
    assert got.vendor_legitimate_interests == want["vendorLegitimateInterests"]
    assert got.special_feature_optins == want["specialFeatureOptins"]


def test_stream_cn_holding_a_tc_string_is_stored_decoded():
    from tagcrawl.stream.normalize import decoded_consent

    assert decoded_consent(IAB_EXAMPLE) == {"tcf": tcf.decode(IAB_EXAMPLE).summary()}
    assert decoded_consent("1YNN")["us_privacy"] == {"string": "1YNN", "notice": True, "opt_out_sale": False,
                                                     "lspa": False}
    assert decoded_consent("C0001:1,C0002:0") is None  # a OneTrust group list stays raw only
    assert decoded_consent(None) is None and decoded_consent("") is None


# -- bounds: a TC string is decoded by its output, not only its input (issue 24) ----------------------

DECODE = Path(__file__).parents[1] / "support" / "web" / "compliance" / "tcf_decode.js"
FULL = (1, MAX_ID)


def _over(n: int) -> list[tuple[int, int]]:
    """Range entries naming ``n`` vendor ids (without repeating one)."""
    return [(1, n)] if n <= MAX_ID else [FULL] + _over(n - MAX_ID)


def test_a_range_bomb_is_refused_before_it_is_expanded():
    bomb = range_bomb()  # 4,096 characters: 740 x 1..65535 = 48 million ids (1.9 GB as a list before the fix)
    assert len(bomb) <= 4096
    with pytest.raises(tcf.TCStringError, match="more than 10,000 vendor ids"):
        tcf.decode(bomb)
    assert tcf.try_decode(bomb) is None


@pytest.mark.parametrize("sections", [
    dict(legitimate=("ranges", [FULL] * 300)),
    dict(restrictions=[(p % 24 + 1, 1, [FULL] * 8) for p in range(40)]),
    dict(consents=("ranges", [(1, 6000)]), legitimate=("ranges", [(1, 6000)])),
    dict(consents=("bitfield", list(range(1, 10_002)), 10_001)),
    dict(consents=("ranges", [(1, 4000)]), legitimate=("bitfield", list(range(1, 4001)), 4000),
         restrictions=[(2, 1, [(1, 2001)])]),
], ids=["legitimate interests", "restrictions", "consents and legitimate interests", "bitfield", "all three"])
def test_every_vendor_list_counts_toward_the_cap(sections):
    with pytest.raises(tcf.TCStringError, match="more than 10,000 vendor ids"):
        tcf.decode(core(**sections).base64url())


def test_ten_thousand_vendor_ids_are_decoded_and_one_more_is_refused():
    at_cap = core(("ranges", [(1, 5000)]), ("bitfield", list(range(1, 4001)), 4000), [(1, 0, [(1, 1000)])])
    d = tcf.decode(at_cap.base64url())
    assert (len(d.vendor_consents), len(d.vendor_legitimate_interests)) == (5000, 4000)
    assert d.publisher_restrictions == [{"purpose": 1, "type": 0, "vendors": list(range(1, 1001))}]
    over = core(("ranges", [(1, 5000)]), ("bitfield", list(range(1, 4001)), 4000), [(1, 0, [(1, 1001)])])
    with pytest.raises(tcf.TCStringError):
        tcf.decode(over.base64url())


def test_the_length_cap_is_checked_before_any_work():
    assert tcf.try_decode(" " * (tcf.MAX_LENGTH + 1)) is None
    assert tcf.try_decode("C" * 20 * 1024 * 1024) is None  # a 20 MB tcString from a page: refused on its length


BUILT = [
    core(("ranges", [(1, 1500)]), ("bitfield", [1, 5, 9, 755], 1500), [(2, 1, [(1, 30), (40, 40)])]),
    core(("ranges", [(3, 5), (9, 9), (755, 793)]), ("ranges", [])),
    core(("ranges", [(1, 5000)]), ("bitfield", list(range(1, 4001)), 4000), [(1, 0, [(1, 1000)])]),
]


@pytest.fixture(scope="module")
def iab_decoded(npm_packages):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    done = subprocess.run([node, str(DECODE)], input=json.dumps([w.base64url() for w in BUILT]), capture_output=True,
                          text=True, check=True, env=dict(os.environ, NODE_PATH=str(npm_cdn.NPM_ROOT)), timeout=60)
    return json.loads(done.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(BUILT)))
def test_strings_built_bit_by_bit_decode_as_the_iab_decoder_decodes_them(iab_decoded, index):
    """The bit layout of tests/support/tc_strings.py (ranges, bitfields, publisher restrictions) is the IAB's."""
    want, got = iab_decoded[index], tcf.decode(BUILT[index].base64url())
    assert "error" not in want
    assert (got.cmp_id, got.purpose_consents) == (want["cmpId"], want["purposeConsents"])
    assert got.vendor_consents == want["vendorConsents"]
    assert got.vendor_legitimate_interests == want["vendorLegitimateInterests"]
    assert got.publisher_restrictions == want["publisherRestrictions"]


# Every path a TC string from a page or a stream client takes, as the Collect step and the stream call them.
BOMB_SETUP = """
from tests.support.tc_strings import range_bomb
from tagcrawl.engine.compliance import report
from tagcrawl.stream.normalize import decoded_consent
from tagcrawl.engine.vendors import Request, match_requests, pixels_from_hits
bomb = range_bomb()
"""
BOMB_WORK = """
import time
start = time.monotonic()
hits = match_requests([Request(url="https://www.facebook.com/tr/?id=123456789012345&ev=PageView&gdpr=1"
                                   "&gdpr_consent=" + bomb)])
facts = report.ConsentFacts(banner=True, action="accept", verified=True, choice_ms=1.0,
                            frames=[{"url": "https://shop.example/", "tcf": {"cmpId": 300, "tcString": bomb}}])
cookie = {"name": "euconsent-v2", "domain": "shop.example", "value": bomb, "expires": -1, "session": True}
built = report.build(pixels_from_hits(hits), hits, [cookie], "https://shop.example/", facts)
result = ([t["decoded"] for t in built.consent.tcf], [p.tcf["tcf"] for p in built.pixels], decoded_consent(bomb),
          time.monotonic() - start < 2)
"""


@pytest.mark.slow
def test_the_range_bomb_costs_bounded_memory_on_every_path():
    """``gdpr_consent`` of a pixel, ``__tcfapi``'s tcString, the ``euconsent-v2`` cookie and the stream's ``cn``:
    each is left undecoded, in a process whose address space may grow by 200 MB only (the old decoder
    needed 1.9 GB per string) and whose peak RSS grows by less than that."""
    peak = peak_rss.in_subprocess(BOMB_SETUP, BOMB_WORK, address_space_mb=200)
    assert peak.result == "([None, None], [None], None, True)"
    assert peak.growth_mb < 200
