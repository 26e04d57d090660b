"""Every decoder of page data is bounded by its output, not only its input (issue 24; the table is in
docs/security.md, "Decoders: bounded by output"): hostile inputs to each one, through the function the
Collect step calls (``vendors.match_request``, ``compliance.report``/``signals``), in a fresh process whose
address space may grow by 300 MB only, each with its peak RSS growth read from /proc and its output cap
checked.  The TC string bounds are in test_tcf.py, lz-string's equality with the npm package in
test_lzstring.py.  Before these bounds, the "gpp" case needed 400 MB and a 240 KB "batch parameters"
request 920 MB (every batch item copied the request's parameters)."""
from __future__ import annotations

import ast

import pytest

from tagcrawl.core.truncation import CONSENT_STRING_MAX, cut
from tagcrawl.engine.vendors.matcher import MAX_HITS

from tests.support import peak_rss

SETUP = """
import base64, gzip, json
import brotli
from tests.support.peak_rss import in_this_process
from tagcrawl.engine.compliance import signals
from tagcrawl.engine.vendors import Request, decode, encodings, match_request
K = 1024
gpp = "DBABTA" + "~ab" * (7 * K * K)                        # 20 MB, 7 million sections
sections = list(range(100_000))
lz_zeros = "A" * (256 * K)                                  # every code a literal, no end marker
b64 = base64.b64encode(json.dumps({"token": "x" * (K * K)}).encode()).decode()[:K * K]
gzip_bomb = gzip.compress(b'{"api_key": "' + b"0" * (64 * K * K) + b'"}')
br_bomb = brotli.compress(b"[" + b"0," * (32 * K * K) + b"0]")
nesting = "[" * (256 * K)
multipart = ("--a\\r\\nContent-Disposition: form-data; name=\\"f\\"\\r\\n\\r\\nv\\r\\n" * 8000)
ndjson = '{"api_key": "phc_x", "event": "e"}\\n' * 8000
matrix = "https://ad.doubleclick.net/activity" + ";src=1" * (K * K)
form = "&".join(f"k{i}=v" for i in range(60_000))
amplitude = "https://api2.amplitude.com/2/httpapi?" + "&".join(f"q{i}=v" for i in range(2000))
shared = {f"o{j}": {f"k{i}": 0 for i in range(2000)} for j in range(11)}  # 24,000 parameters every item shares
batch = json.dumps(dict(shared, events=[{"event_type": "x", "api_key": "0" * 32}] * 500), separators=(",", ":"))
many_ids = json.dumps({"events": [{"event_type": "x", "api_key": [f"k{i}" for i in range(100)]}] * 250})
def post(url, body, headers=None):
    return Request(url=url, method="POST", post_data=body, headers=headers or {}, resource_type="fetch")
"""
WORK = """
cases = {
    "gpp": lambda: signals.gpp_summary(gpp, sections),
    "lz-string": lambda: match_request(Request(url="https://us.i.posthog.com/e/?compression=lz64&data=" + lz_zeros)),
    "base64": lambda: encodings.b64_text(b64),
    "gzip": lambda: match_request(post("https://api2.amplitude.com/2/httpapi", gzip_bomb, {"Content-Encoding": "gzip"})),
    "br": lambda: encodings.body_text(br_bomb, {"Content-Encoding": "br"}),
    "json nesting": lambda: decode.decode_body(nesting),
    "multipart": lambda: decode.decode_body(multipart, "multipart/form-data; boundary=a"),
    "ndjson": lambda: decode.decode_body(ndjson),
    "matrix": lambda: match_request(Request(url=matrix)),
    "form": lambda: decode.decode_body(form),
    "batch parameters": lambda: match_request(post(amplitude, batch)),
    "ids per request": lambda: match_request(post(amplitude, many_ids)),
}
out = {}
for name, fn in cases.items():
    value, growth = in_this_process(fn)
    out[name] = (round(growth, 1), value)
g = out["gpp"][1]
result = {
    "growth_mb": {name: growth for name, (growth, _) in out.items()},
    "gpp": (g["sections"], len(g["applicable_sections"]), len(g["gpp_string"]), g["us_privacy"]),
    "base64": len(out["base64"][1]),
    "br": len(out["br"][1]),
    "json nesting": out["json nesting"][1].kind,
    "multipart": len(out["multipart"][1].params),
    "ndjson": (out["ndjson"][1].kind, len(out["ndjson"][1].json)),
    "form": len(out["form"][1].params),
    "hits": [len(out[name][1]) for name in ("lz-string", "gzip", "matrix", "batch parameters", "ids per request")],
    "batch parameters": len(out["batch parameters"][1][0].params),
}
"""


@pytest.mark.slow
def test_every_decoder_stays_within_its_bounds_on_hostile_input():
    peak = peak_rss.in_subprocess(SETUP, WORK, address_space_mb=300)
    result = ast.literal_eval(peak.result)
    assert all(growth < 64 for growth in result["growth_mb"].values()), result["growth_mb"]
    # counted whole, 64 section ids, string cut at CONSENT_STRING_MAX with the truncation mark (docs/api.md)
    assert result["gpp"] == (7 * 1024 * 1024, 64, len(cut("x" * (6 + 3 * 7 * 1024 * 1024), CONSENT_STRING_MAX)), None)
    assert result["base64"] <= 256 * 1024 and result["br"] <= 256 * 1024
    assert result["json nesting"] == "raw"
    assert result["multipart"] == 1  # 1,000 parts read, one field name
    assert result["ndjson"] == ("jsonlines", 500)
    assert result["form"] == 2000
    assert result["hits"] == [1, 1, 1, 500, MAX_HITS]  # each still recognised (PostHog, Amplitude, Floodlight)
    assert result["batch parameters"] == 24_003  # every item still sees the request's parameters (shared, not copied)
