"""A protocol that several vendors speak (Segment, Snowplow, Matomo) is named by
the host that receives it; the generic (host-less) shape names the protocol's
vendor only where no vendor owns the host (issue 27 item 3).  The matching
rule: ``tagcrawl/engine/vendors/matcher.py`` (``CompiledPattern.owns_host``)."""
from __future__ import annotations

import json

import pytest

from tagcrawl.engine.vendors import Request, match_request

#: analytics.js (Segment's library) batch: message ids start "ajs-".
SEGMENT_BODY = json.dumps({"batch": [{"type": "track", "event": "Signed Up", "messageId": "ajs-next-1700000000000-abc",
                                      "anonymousId": "a1", "timestamp": "2024-01-01T00:00:00.000Z"}],
                           "writeKey": "AbCdEf0123456789AbCdEf0123456789", "sentAt": "2024-01-01T00:00:00.000Z"})
#: @rudderstack/analytics-js: uuid message ids and its own `rudderId`.
RUDDER_BODY = json.dumps({"type": "track", "event": "Signed Up", "messageId": "6f1c3a5e-2b4d-4e6f-9a1b-3c5d7e9f1a2b",
                          "rudderId": "8f1c3a5e-2b4d-4e6f-9a1b-3c5d7e9f1a2b", "anonymousId": "a1"})
#: Snowplow tracker tp2 payload.
SNOWPLOW_BODY = json.dumps({"schema": "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4",
                            "data": [{"e": "pv", "aid": "shop-web", "tv": "js-3.1.0", "p": "web",
                                      "url": "https://shop.example/"}]})


def _vendors(url: str, body: str | None = None) -> list[tuple[str, str | None]]:
    req = Request(url=url, method="POST" if body else "GET", post_data=body, resource_type="xhr",
                  frame_url="https://shop.example/", timestamp=0, headers={"Content-Type": "application/json"})
    return [(h.vendor_key, h.account_id) for h in match_request(req)]


@pytest.mark.parametrize("url, vendor", [
    ("https://api.segment.io/v1/batch", "segment"),
    ("https://cdp.shop.example/v1/batch", "segment"),  # a first-party proxy: no vendor owns the host
    ("https://shopabc.dataplane.rudderstack.com/v1/batch", "rudderstack"),  # analytics.js pointed at RudderStack
    ("https://us-east-1.hightouch-events.com/v1/batch", "hightouch"),
])
def test_segment_protocol_is_named_by_the_receiving_host(url, vendor):
    assert {v for v, _ in _vendors(url, SEGMENT_BODY)} == {vendor}


def test_rudderstack_sdk_on_the_sites_own_data_plane_is_rudderstack():
    assert {v for v, _ in _vendors("https://cdp.shop.example/v1/track", RUDDER_BODY)} == {"rudderstack"}


@pytest.mark.parametrize("url, expected", [
    ("https://acme.matomo.cloud/matomo.php?idsite=3&rec=1&action_name=Home", [("matomo", "3")]),
    ("https://stats.shop.example/matomo.php?idsite=3&rec=1", [("matomo", "3")]),
    ("https://acme.piwik.pro/ppms.php?idsite=0f8fad5b-d9cb-469f-a165-70867728950e&rec=1",
     [("piwik_pro", "0f8fad5b-d9cb-469f-a165-70867728950e")]),
])
def test_matomo_protocol_is_named_by_the_receiving_host(url, expected):
    assert _vendors(url) == expected


def test_matomo_shape_on_a_host_another_vendor_owns_is_not_matomo():
    """Piwik PRO's host speaks the Matomo protocol: a `piwik.php` hit there is never reported as Matomo."""
    assert "matomo" not in {v for v, _ in _vendors("https://acme.piwik.pro/piwik.php?idsite=3&rec=1")}


def test_snowplow_protocol_is_snowplow_only_where_no_vendor_owns_the_host():
    path = "/com.snowplowanalytics.snowplow/tp2"
    assert _vendors("https://collector.shop.example" + path, SNOWPLOW_BODY) == [("snowplow", "shop-web")]
    # a vendor's own collection host (here Segment's) is never renamed by the generic Snowplow shape
    assert "snowplow" not in {v for v, _ in _vendors("https://api.segment.io" + path, SNOWPLOW_BODY)}
