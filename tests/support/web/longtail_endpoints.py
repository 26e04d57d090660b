"""Vendor endpoints that the long-tail consent pages need beyond ``sdk_endpoints.py``
(``tests/support/web/longtail/truth.json`` lists the pages; docs/real-pages.md).

- Segment's destination catalogue of a source, ``cdn.segment.com/v1/projects/<writeKey>/integrations``:
  what @segment/consent-manager fetches to build its categories
  (``consent-manager-builder/fetch-destinations.js``: a JSON list of
  ``{name, creationName, description, website, category}``; it keys destinations by
  ``creationName``).  The consent manager loads analytics.js only when at least one
  listed destination is allowed, so the list is never empty.

Every answer carries CORS for the page's origin, as the real CDN does.
"""
from __future__ import annotations

import json
import re

#: Two device-mode destinations of the fixture source: one "Analytics", one "Advertising"
#: (the consent manager's ``marketingAndAnalytics`` and ``advertising`` categories).
SEGMENT_DESTINATIONS = [
    {"name": "Google Analytics 4 Web", "creationName": "Google Analytics 4 Web",
     "description": "Google Analytics 4 is Google's analytics product.", "website": "https://analytics.google.com",
     "category": "Analytics"},
    {"name": "Facebook Pixel", "creationName": "Facebook Pixel",
     "description": "Measure the actions people take on your website.", "website": "https://www.facebook.com",
     "category": "Advertising"},
]


def route(host, path, query, method, body, headers, web):
    """Fixture-web route (see ``server.py``); None for every other host and path."""
    if host == "cdn.segment.com" and re.fullmatch(r"/v1/projects/[^/]+/integrations", path):
        cors = {"Access-Control-Allow-Origin": headers.get("Origin") or "*", "Vary": "Origin"}
        return 200, {"Content-Type": "application/json", "Cache-Control": "no-store", **cors}, json.dumps(
            SEGMENT_DESTINATIONS)
    return None
