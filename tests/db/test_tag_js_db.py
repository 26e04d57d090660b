"""The browser tag (``/stream/tag.js``) as served: small, cached and versioned.
End to end in Chrome: tests/browser/test_tag_js.py."""
from __future__ import annotations

import gzip

import pytest

from tagcrawl import __version__
from tagcrawl.engine.vendors import CATALOG
from tagcrawl.stream.tag.build import rendered


@pytest.mark.postgres
def test_tag_js_is_served_small_cached_and_versioned(client):
    tag = rendered()
    response = client.get("/stream/tag.js")
    assert response.status_code == 200
    assert response.mimetype == "application/javascript"
    assert response.data == tag.body
    # Issue 27 grows the catalog (and with it the tag's vendor table) from about 100 to 300+ vendors:
    # the budget is 8 KB of script plus 100 bytes a vendor (about 75 today: 20.8 KB for 180 vendors).
    budget = 8 * 1024 + 100 * len(CATALOG)
    assert len(response.data) < budget, f"tag.js is {len(response.data)} bytes, {len(CATALOG)} vendors"
    assert response.headers["ETag"] == f'"{tag.digest}"'
    assert response.headers["Cache-Control"] == "public, max-age=300"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert tag.version.startswith(f"{__version__}+") and f'"{tag.version}"'.encode() in response.data
    assert b"__TAGCRAWL_" not in response.data and b"/*" not in response.data
    assert client.get("/stream/tag.js", headers={"If-None-Match": f'"{tag.digest}"'}).status_code == 304
    versioned = client.get(f"/stream/tag.js?v={tag.digest}")
    assert versioned.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get("/stream/tag.js?v=0ld").headers["Cache-Control"] == "public, max-age=300"
    zipped = client.get("/stream/tag.js", headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == tag.body and zipped.headers["ETag"] == f'"{tag.digest}-gz"'
