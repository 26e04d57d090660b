"""The HAR reader's bounds and one-line errors (issue 24: ``"pages": 5`` was a
raw traceback).  Bounds and messages: ``tagcrawl/engine/har/read.py``, docs/har.md;
the CLI's exit status and output: tests/db/test_caller_bounds_db.py."""
from __future__ import annotations

import base64
import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tagcrawl.engine.har.read import (MAX_BODY_CHARS, MAX_ENTRIES, MAX_HEADERS, MAX_JSON_CONTAINERS, MAX_URL_CHARS, HarError,
                               classify_har, load_har, pixels_by_page, requests_by_page)

META = "https://www.facebook.com/tr/?id=123456789012345&ev=PageView"


def har(entries=(), **log) -> dict:
    return {"log": {"version": "1.2", "entries": list(entries), **log}}


@pytest.mark.parametrize("doc, message", [
    (har(pages=5), "not a HAR file: log.pages must be an array, not a number"),
    (har(pages={"id": "p"}), "not a HAR file: log.pages must be an array, not an object"),
    ({"log": {"entries": {}}}, "not a HAR file: log.entries is an object, not an array"),
    ({"log": {"entries": "x"}}, "not a HAR file: log.entries is a string, not an array"),
    ({"log": {}}, "not a HAR file: log.entries is missing"),
    ({"log": []}, "not a HAR file: log is an array, not an object"),
    ({}, "not a HAR file: log is missing"),
])
def test_the_structure_has_har_types_or_a_one_line_error(doc, message):
    with pytest.raises(HarError) as caught:
        pixels_by_page(doc)
    assert str(caught.value) == message


@pytest.mark.parametrize("raw, start", [
    (b"[1, 2]", "not a HAR file: the document is an array, not an object"),
    (b"{", "not JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
    (b'{"log": \xff}', "not JSON: not UTF-8 (byte 8)"),
    (b'{"n": ' + b"9" * 5000 + b"}", "not JSON: Exceeds the limit (4300 digits)"),
    (b"[" * 100_000 + b"]" * 100_000, "not JSON: nested too deeply"),
    (b"[]" * (MAX_JSON_CONTAINERS + 1), f"too large: {MAX_JSON_CONTAINERS + 1} '{{' and '['"),
])
def test_file_errors_are_one_line(raw, start):
    with pytest.raises(HarError) as caught:
        load_har(raw)
    assert str(caught.value).startswith(start) and "\n" not in str(caught.value)


def test_counts_are_checked_before_the_entries_are_read():
    with pytest.raises(HarError, match=f"^too large: log.entries has {MAX_ENTRIES + 1} entries, at most "):
        requests_by_page(har([{}] * (MAX_ENTRIES + 1)))
    with pytest.raises(HarError, match="^too large: log.pages has 10001 pages"):
        requests_by_page(har(pages=[{}] * 10_001))


def test_bodies_headers_and_urls_are_cut_or_skipped_and_noted():
    long_text = "a=1&" * (MAX_BODY_CHARS // 2)
    b64 = base64.b64encode(b"\x01" * MAX_BODY_CHARS).decode()  # 1.33 MiB of base64
    entries = [
        {"request": {"url": META, "method": "POST", "postData": {"text": long_text},
                     "headers": [{"name": f"h{i}", "value": i} for i in range(MAX_HEADERS + 5)]}},
        {"request": {"url": META, "postData": {"text": b64, "encoding": "base64"}}},
        {"request": {"url": "https://x.example/" + "a" * MAX_URL_CHARS}},
        {"request": {"url": 5}}, None,
        {"request": {"url": META, "postData": {"params": [{"name": "k", "value": "v" * 2000}] * 2000}}},
    ]
    notes: list[str] = []
    [first, second, third] = requests_by_page(har(entries), notes)[""]
    assert len(first.post_data) == MAX_BODY_CHARS and len(first.headers) == MAX_HEADERS
    assert first.headers["h7"] == "7"  # a number is a value; other types are ignored
    assert second.post_data == b"\x01" * (MAX_BODY_CHARS // 4 * 3)  # cut at whole base64 quanta, then decoded
    assert len(third.post_data) == MAX_BODY_CHARS
    assert notes == ["2 entries skipped: no request.url string",
                     f"1 entries skipped: request.url longer than {MAX_URL_CHARS} characters"]


def test_lone_surrogates_in_a_har_are_read_as_replacement_characters():
    raw = json.dumps(har([{"request": {"url": "https://www.facebook.com/tr/?id=1234567890123\ud800"}}])).encode()
    result = classify_har(raw)
    json.dumps(result, ensure_ascii=False).encode("utf-8")  # printable
    assert result[""][0]["account_id"].endswith("\ufffd")


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=30)
_FIELDS = st.fixed_dictionaries({}, optional={
    "request": st.fixed_dictionaries({}, optional={"url": st.sampled_from([META, "http://[::1", "x"]) | _JSON,
                                                   "method": _JSON, "headers": _JSON, "postData": _JSON}) | _JSON,
    "pageref": _JSON, "_frameUrl": _JSON, "_resourceType": _JSON, "startedDateTime": _JSON})


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(log=st.fixed_dictionaries({}, optional={"entries": st.lists(_FIELDS, max_size=5) | _JSON,
                                                "pages": st.lists(_JSON, max_size=3) | _JSON}))
def test_any_document_is_classified_or_refused_with_a_har_error(log):
    try:
        result = pixels_by_page({"log": log})
    except HarError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(result, dict)


@pytest.mark.slow
def test_out_of_memory_while_parsing_is_a_har_error_not_a_traceback(tmp_path):
    """Under an address-space limit (RLIMIT_AS) just above the interpreter's size,
    a 40 MB file whose text takes 160 MB as a str (one astral character makes
    it 4 bytes a character) fails with the reader's one line, and the process lives on."""
    path = tmp_path / "big.har"
    path.write_bytes(b'{"log": {"entries": [], "x": "\xf0\x9f\x98\x80' + b"a" * 40_000_000 + b'"}}')
    script = textwrap.dedent(f"""
        import resource, sys
        from tagcrawl.engine.har.read import HarError, classify_har
        raw = open({str(path)!r}, "rb").read()
        size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (size * 1024 + 96 * 1024 * 1024, resource.RLIM_INFINITY))
        try:
            classify_har(raw)
        except HarError as exc:
            print("HarError:", exc)
        print("alive")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["HarError: too large: out of memory while parsing the file", "alive"]
