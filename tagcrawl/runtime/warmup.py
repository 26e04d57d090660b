"""Load the ingestion path's lazy parts before a worker takes requests.

ua-parser loads its builtin regexes on first use, tldextract builds its
public-suffix trie, and marshmallow compiles its URL pattern: together
about a second of CPU, which the first events of every new gunicorn worker
(and of every worker recycled by ``max_requests``) would otherwise wait on,
several threads at once.  Called from ``gunicorn_conf.post_worker_init``.
"""
from __future__ import annotations

import time
import uuid
from datetime import datetime, timezone

from tagcrawl.web.stream_body import validate_event
from tagcrawl.stream.normalize import normalize

SAMPLE_UA = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/120.0.0.0 Safari/537.36")


def warm_up() -> float:
    """Validate and normalize one sample event (no database, no app context).

    Returns:
        the time it took, in ms.
    """
    started = time.perf_counter()
    event = validate_event({
        "t": str(uuid.uuid4()), "vn": "Facebook Pixel", "e": "PageView", "tm": time.time() * 1000,
        "u": "https://www.example.co.uk/warm-up", "vu": "https://www.facebook.com/tr/?id=1&ev=PageView",
        "dt": [{"k": "v"}],
    })
    normalize(event, customer_id=0, origin_host="www.example.co.uk", received_at=datetime.now(timezone.utc),
              environ={"HTTP_USER_AGENT": SAMPLE_UA, "REMOTE_ADDR": "192.0.2.1"})
    return (time.perf_counter() - started) * 1000
