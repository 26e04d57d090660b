"""The GPP string decoder (tagcrawl/engine/compliance/gpp.py) and how a crawl reports GPP
(``signals.gpp_signal``, ``consent.signals.bounded_parsed``):

- the section layouts (gpp_sections.json) are those of the IAB's reference library @iabgpp/cmpapi,
  read from the pinned npm package with node;
- the IAB's published examples (the strings of iabgpp-es's own tests, modules/cmpapi/test) decode to the
  values its tests state, and to what @iabgpp/cmpapi's GppModel decodes;
- strings encoded by @iabgpp/cmpapi for every US section decode as it decodes them;
- hostile strings never raise and the output stays within its caps.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tagcrawl.core.truncation import (GPP_PARSED_DEPTH_MAX, GPP_PARSED_SECTIONS_MAX, GPP_PARSED_STRING_MAX,
                                      GPP_SECTION_VALUES_MAX, MARK)
from tagcrawl.engine.compliance import gpp, signals
from tagcrawl.engine.consent.signals import bounded, bounded_parsed, notes
from tagcrawl.engine.vendors.types import Hit

from tests.support.web import npm_cdn

VECTORS_JS = Path(__file__).parents[1] / "support" / "web" / "compliance" / "gpp_vectors.js"
#: Whole GPP strings from iabgpp-es modules/cmpapi/test/GppModel.test.ts.
IAB_STRINGS = [
    "DBABLA~BAAAVVVVUQA.QA", "DBABLA~BVQqAAAAAgA.QA", "DBABLA~CAAAAAAAAABA.QA", "DBABLA~CAAAAAAAAQA.QA",
    "DBABLA~CAAAAAAAAQRA.QA", "DBABLA~CAAAAAABEQA.QA", "DBABLA~CAAAVVVVAFBA.QA", "DBABLA~CAAAVVVVVVRA.QA",
    "DBABTA~1---", "DBABTA~1Y--", "DBABTA~1YNN", "DBABTA~1YYN",
    "DBABMA~CPSG_8APSG_8ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA",
    "DBACNYA~CPSG_8APSG_8ANwAAAENAwCgAAAAAAAAAAAAAAAAAAAA.IAAA.YAAAAAAAAAAA~1YNN",
    ("DBACOeA~CPSG_8APSG_8ANwAAAENAwCgAAAAAAAAAAAAAAAAAAAA.IAAA.YAAAAAAAAAAA~BPSG_8APSG_8AAyACAENGdCgf_gfgAfgfgBgAB"
    "ABAAABAB4AACACADwAAEAE.fHHHA4444ao~1YNN"),
    # every section the library knows, ids 2 to 27
    ("DBACOcGA~CPSG_8APSG_8ANwAAAENAAFgAAAAAAAAAAAAAAAAAAAA.IAAA.YAAAAAAAAAAA~BPSG_8APSG_8AAAAAAENAACAAAAAAAAAAAAAAAAAA"
    "A.YAAAAAAAAAA~1---~BAAAAAAAAQA.QA~BAAAAABA.QA~BAAAABA~BAAAAEA.QA~BAAAAAQA~BAAAAAEA.QA~BAAAAABA~BAAAAABA.QA~BAAAA"
    "AABAA.QA~BAAAAAQA.QA~BAAAAAABAA.QA~BAAAAAQA.QA~BAAAAAQA.QA~BAAAAABA.QA~BAAAAAAAQA.QA~BAAAAAQA.QA~BAAAAAQA.QA~BQAA"
    ".QA~BQAA.AAA~BQAA.AAA~BQAA.AAA"),
]
#: Section strings from iabgpp-es modules/cmpapi/test/encoder/section/*.test.ts, with a header put before them.
IAB_SECTIONS = {7: ["CVVVkkkkkpFY.YA", "BVVVkkkkkpFY", "CVQqAAAACg", "BAAAVVVVUQA.QA", "CAAAVVVVAFBA.QA"],
                8: ["BVWSSSVY.YA", "BbYbGwXY.YA", "BAAAAAAA"], 9: ["BVWSSVY"], 10: ["BVWSSVg.YA", "BVWSSVg"],
                11: ["BVVkklWA"], 12: ["BVWSSZFg.YA", "BbYbG22w"], 13: ["BVWSSZlY"], 14: ["BVWSSZFY.YA"],
                15: ["BVWSSRpFYA.YA"], 16: ["BVWSSVWA.YA"], 17: ["BVWSSSSVYA.YA"], 18: ["BVVkklWA.YA"],
                19: ["BVWSSVWA.YA"], 20: ["BVWSSZFY.YA"], 21: ["BVWSSRklWA.YA"], 22: ["BVWSSVWA.YA"],
                23: ["BVWSSVWA"], 24: ["BVVU.YA"], 25: ["BVVV.kkk"], 26: ["BVVV.kkk"], 27: ["BVVV.kkk"]}


def _fib(value: int) -> str:
    """Fibonacci code of ``value`` (>= 1) as the GPP header writes it: lowest term first, then a closing 1."""
    terms = [1, 2]
    while terms[-1] <= value:
        terms.append(terms[-1] + terms[-2])
    bits = ["0"] * len(terms)
    for i in range(len(terms) - 1, -1, -1):
        if terms[i] <= value:
            bits[i], value = "1", value - terms[i]
    return "".join(bits).rstrip("0") + "1"


def header(*entries) -> str:
    """A GPP header naming ``entries`` (an int, or ``(start, end)`` for a range), as base64url."""
    bits, offset = "000011" + "000001" + format(len(entries), "012b"), 0
    for entry in entries:
        if isinstance(entry, tuple):
            bits += "1" + _fib(entry[0] - offset) + _fib(entry[1] - entry[0])
            offset = entry[1]
        else:
            bits += "0" + _fib(entry - offset)
            offset = entry
    bits += "0" * (-len(bits) % 8)  # padded as @iabgpp/cmpapi's CompressedBase64UrlEncoder pads
    bits += "0" * (-len(bits) % 6)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return "".join(alphabet[int(bits[i:i + 6], 2)] for i in range(0, len(bits), 6))


def _node(request):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    done = subprocess.run([node, str(VECTORS_JS)], input=json.dumps(request), capture_output=True, text=True,
                          check=True, env=dict(os.environ, NODE_PATH=str(npm_cdn.NPM_ROOT)), timeout=60)
    return json.loads(done.stdout)


def _ours(decoded: dict) -> dict:
    """Our sections, without those the decoder leaves to others (TCF), for comparing with the library's."""
    return {name: value for name, value in decoded["sections"].items() if value is not None}


def test_iab_header_examples():
    """iabgpp-es HeaderV1.test.ts: DBAA, DBABMA and DBACNYA name [], [2] and [2, 6]."""
    assert [gpp.section_ids(h) for h in ("DBAA", "DBABMA", "DBACNYA")] == [[], [2], [2, 6]]
    assert header(2) == "DBABMA" and header(2, 6) == "DBACNYA" and header((7, 8)) == "DBABrw"


def test_iab_section_examples_decode_to_the_values_its_tests_state():
    usnat = gpp.decode("DBABLA~CVVVkkkkkpFY.YA")["sections"]["usnat"]  # UsNat.test.ts "should decode CVVVkkkkkpFY.YA"
    assert usnat["SharingNotice"] == usnat["SaleOptOut"] == usnat["TargetedAdvertisingOptOut"] == 1
    assert usnat["SensitiveDataProcessing"] == [2, 1, 0] * 5 + [2]
    assert usnat["KnownChildSensitiveDataConsents"] == [2, 1, 0]
    assert (usnat["MspaCoveredTransaction"], usnat["MspaOptOutOptionMode"], usnat["MspaServiceProviderMode"]) == (1, 1, 2)
    assert usnat["Gpc"] is True and usnat["GpcSegmentIncluded"] is True
    legacy = gpp.decode("DBABLA~BVVVkkkkkpFY")["sections"]["usnat"]  # version 1: 12 categories, 2 child consents
    assert legacy["SensitiveDataProcessing"] == [2, 1, 0] * 4 and legacy["KnownChildSensitiveDataConsents"] == [2, 1]
    assert legacy["GpcSegmentIncluded"] is False
    usca = gpp.decode("DBABBg~BVWSSSVY.YA")["sections"]["usca"]  # UsCa.test.ts "should decode BVWSSSVY.YA"
    assert usca["SensitiveDataProcessing"] == [2, 1, 0, 2, 1, 0, 2, 1, 0]
    assert usca["KnownChildSensitiveDataConsents"] == [2, 1] and usca["Gpc"] is True
    usin = gpp.decode(f"{header(25)}~BVVV.kkk")["sections"]["usin"]  # UsIn.test.ts "should decode"
    assert (usin["MspaCoveredTransaction"], usin["MspaMode"]) == (1, 1)
    assert usin["SensitiveDataProcessing"] == [2, 1, 0, 2, 1, 0, 2, 1]
    assert gpp.decode("DBABTA~1YNN")["sections"] == {"uspv1": {"Version": 1, "Notice": "Y", "OptOutSale": "N",
                                                               "LspaCovered": "N"}}


@pytest.fixture(scope="module")
def library(npm_packages):
    """``decode(strings)`` and ``encode(cases)`` by @iabgpp/cmpapi, and its section layouts."""
    return {"decode": lambda strings: _node({"decode": strings}), "encode": lambda cases: _node({"encode": cases}),
            "table": _node({"table": True})}


@pytest.mark.slow
def test_the_layouts_are_the_iab_librarys(library):
    data = json.loads((Path(gpp.__file__).with_name("gpp_sections.json")).read_text())
    kinds = {"EncodableFixedInteger": lambda n, bits, count: [n, bits],
             "EncodableFixedIntegerList": lambda n, bits, count: [n, bits, count],
             "EncodableBoolean": lambda n, bits, count: [n, "boolean"]}
    for sid, section in library["table"].items():
        if section["name"] == "uspv1":
            assert data["names"][sid] == "uspv1"
            continue
        ours = data["sections"][sid]
        assert ours["name"] == section["name"] == gpp.NAMES[int(sid)]
        assert [s["fields"] for s in ours["segments"]] == [
            [kinds[kind](name, bits, count) for name, kind, bits, count in s["fields"]] for s in section["segments"]]
        assert [(s.get("included"), s.get("absent")) for s in ours["segments"][1:]] == [
            (s["included"], s["absent"]) for s in section["segments"][1:]]
    assert set(data["sections"]) == {k for k, s in library["table"].items() if s["name"] != "uspv1"}


def _all_strings():
    sections = [f"{header(sid)}~{text}" for sid, texts in IAB_SECTIONS.items() for text in texts]
    return IAB_STRINGS + sections


@pytest.mark.slow
def test_the_iab_examples_decode_as_the_iab_library_decodes_them(library):
    strings = _all_strings()
    for text, want in zip(strings, library["decode"](strings)):
        got = gpp.decode(text)
        assert "error" not in want, (text, want)
        assert got["section_ids"] == want["sectionIds"] and got["error"] is None, text
        assert _ours(got) == {k: v for k, v in want["sections"].items() if k not in ("tcfeuv2", "tcfcav1")}, text


def _cases(seed: int) -> list[dict]:
    """Random valid values for every field of every US section (2-bit fields 1 or 2, list items 0 to 2,
    booleans), one case per section and one with all of them, for @iabgpp/cmpapi to encode."""
    rng = random.Random(seed)
    fixed = {"Version", "MspaVersion", "GpcSegmentType"}
    per_section = []
    for sid, layout in gpp.LAYOUTS.items():
        fields = {}
        for segment in layout:
            for field in segment["fields"]:
                if field[0] in fixed:
                    continue
                fields[field[0]] = (rng.random() < 0.5 if field[1] == "boolean" else
                                    [rng.randint(0, 2) for _ in range(field[2])] if len(field) > 2 else rng.randint(1, 2))
        per_section.append({gpp.NAMES[sid]: fields})
    return per_section + [{k: v for case in per_section for k, v in case.items()}]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strings_from_the_iab_encoder_decode_as_it_decodes_them(library, seed):
    cases = _cases(seed)
    strings = library["encode"](cases)
    for case, text, want in zip(cases, strings, library["decode"](strings)):
        got = _ours(gpp.decode(text))
        assert got == want["sections"], text
        for name, fields in case.items():  # and the values set are the values read
            assert {k: got[name][k] for k in fields} == fields, (name, text)
    assert len(_ours(gpp.decode(strings[-1]))) == len(gpp.LAYOUTS) == 21


@pytest.mark.parametrize("bad, error", [
    ("", "not a GPP string"), ("CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", "not a GPP string"),
    ("DB", "header: not a GPP version 1 header"), ("DBAB", "header: header shorter than its section count"),
    ("DBA!~x", "header: not base64url"), ("DB" + "A" * 600, "header: header longer than 512 characters"),
    (header((1, 100)) + "~x", "header: header names more than 64 sections"),
    (header(5000) + "~x", "header: header names more than 64 sections or an id over 4095"),
    ("DB" + "_" * 100, "header: "),
])
def test_a_header_that_cannot_be_read_is_an_error_not_an_exception(bad, error):
    decoded = gpp.decode(bad)
    assert decoded["section_ids"] is None and decoded["sections"] == {} and decoded["error"].startswith(error)


def test_malformed_sections_are_null_and_named_while_the_others_are_decoded():
    decoded = gpp.decode(f"{header(2, 6, 7, 8, 9)}~CPXx~1Y~CVVVkkkkkpFY.YA~BV!~")
    assert decoded["section_ids"] == [2, 6, 7, 8, 9]
    assert decoded["sections"]["usnat"]["Gpc"] is True
    assert decoded["sections"]["usca"] is decoded["sections"]["usva"] is decoded["sections"]["uspv1"] is None
    assert decoded["sections"]["tcfeuv2"] is None  # not decoded here: a TC string (tcf.py)
    assert decoded["error"] == "uspv1: 2 characters, not 4; usca: not base64url; usva: blank section"
    assert gpp.decode(f"{header(7)}~BVV")["error"] == "usnat: 3 characters, the fields need 70 bits"
    short = gpp.decode(f"{header(7, 8)}~CVVVkkkkkpFY")
    assert short["error"] == "the header names 2 sections, the string has 1" and "usnat" in short["sections"]
    assert gpp.decode(f"{header(99)}~abc")["sections"] == {"99": None}


def test_hostile_strings_never_raise_and_stay_within_the_caps():
    rng = random.Random(26)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"
    for _ in range(3000):
        text = "DB" + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        decoded = gpp.decode(text)
        assert len(decoded["section_ids"] or []) <= gpp.MAX_SECTIONS and len(decoded["sections"]) <= gpp.MAX_SECTIONS
        assert all(v is None or len(v) <= 40 for v in decoded["sections"].values())
    many = header((1, 64)) + "~CVVVkkkkkpFY.YA" * 1  # 64 ids, then a 20 MB tail of sections
    decoded = gpp.decode(many + "~BVWSSSVY.YA" * (2 << 20))
    assert len(decoded["section_ids"]) == 64 and len(decoded["sections"]) == 64
    assert decoded["error"].startswith("the header names 64 sections, the string has 2097153")


def test_the_summary_reports_decoded_sections_and_the_cmps_parsed_sections():
    parsed = {"usnat": {"Version": 1, "SaleOptOut": 2}}
    summary = signals.gpp_summary("DBABLA~BVQqAAAAAgA.QA", [7], parsed)
    assert (summary["source"], summary["section_ids"], summary["parsed_sections"]) == ("__gpp", [7], parsed)
    assert summary["decoded"]["usnat"]["SaleOptOut"] == 2 and summary["decode_error"] is None
    cut = signals.gpp_summary("DBABLA~BVQqAAAAAgA.QA" + MARK.format(n=5), [7])
    assert cut["decoded"] is None and cut["decode_error"].startswith("the string was cut")


def _hit(vendor, **params):
    return Hit(vendor_key=vendor.lower(), vendor_name=vendor, account_id=None, params=params)


def test_without_a_gpp_api_the_string_of_a_cookie_or_a_pixel_is_decoded():
    cookies = [{"name": "other", "value": "DBxx"}, {"name": "OTGPPConsent", "value": "DBABLA%7EBVQqAAAAAgA.QA"}]
    hits = [_hit("Meta Pixel", gpp="${GPP_STRING}"), _hit("The Trade Desk", gpp="DBABBg~BVWSSSVY.YA", gpp_sid="8,x,7")]
    from_cookie = signals.gpp_signal([{"url": "u", "gpp": None}], cookies, hits)
    assert from_cookie["source"] == "cookie OTGPPConsent" and from_cookie["gpp_string"] == "DBABLA~BVQqAAAAAgA.QA"
    assert from_cookie["decoded"]["usnat"]["MspaCoveredTransaction"] == 2 and from_cookie["parsed_sections"] is None
    from_pixel = signals.gpp_signal([], cookies[:1], hits)
    assert (from_pixel["source"], from_pixel["applicable_sections"]) == ("pixel The Trade Desk", [8, 7])
    assert from_pixel["decoded"]["usca"]["Gpc"] is True
    frame = {"gpp": {"gppString": "DBABTA~1YNN", "applicableSections": [6], "parsedSections": {"uspv1": {}}}}
    assert signals.gpp_signal([frame], cookies, hits)["source"] == "__gpp"
    assert signals.gpp_signal([], [], []) is None


def test_parsed_sections_are_bounded_whatever_the_script_returned():
    deep = {"a": {"b": {"c": {"d": {"e": 1}}}}}
    parsed = {f"s{i}": {"v": list(range(1000)), "t": "x" * 10_000, "deep": deep} for i in range(100)}
    answer = {"url": "u", "tcf": None, "usp": None,
              "gpp": {"gppString": "DBA", "applicableSections": [], "parsedSections": parsed}}
    capped = bounded(answer)["gpp"]
    kept = capped["parsedSections"]
    assert len(kept) == GPP_PARSED_SECTIONS_MAX and capped["parsedSectionsCut"] is True
    section = kept["s0"]
    assert len(section["v"]) == GPP_SECTION_VALUES_MAX - 2  # the section and its list count too
    assert "t" not in section and "deep" not in section
    small = bounded_parsed({"x" * 500: {"t": "y" * 500, "deep": deep}})[0]
    [(key, value)] = small.items()
    assert key.startswith("x" * GPP_PARSED_STRING_MAX + "…[truncated") and value["t"].endswith("372 chars]")
    assert value["deep"]["a"]["b"]["c"] is None and GPP_PARSED_DEPTH_MAX == 4
    assert bounded_parsed("not a dict") == (None, True) and bounded_parsed(None) == (None, False)
    assert notes([{"gpp": capped}]) == [
        "consent signals: GPP parsedSections of frame 0 cut (at most 32 sections of 256 values; docs/compliance.md)"]
