"""The TC string decoder (tagcrawl/compliance/tcf.py) against the IAB's
published example and against strings made by the IAB's own encoder
(@iabtcf/core, run with node on the pinned npm package)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tagcrawl.compliance import tcf

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
