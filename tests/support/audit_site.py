"""A tiny audit site on the fixture web (until the site generator of issue 29 lands) and audit rows.

On ``plain.example`` (a fixture site's host, so the fixture web's vendor catch-all leaves it to this
route): ``/audit/`` and ``/audit/p1`` .. ``/audit/p4`` are small pages that link to each other (``p2`` sets
a first-party cookie), ``/audit/missing`` answers 404.  ``install(web)`` adds the route (returns the previous one to restore).
"""
from __future__ import annotations

HOST = "plain.example"
PAGES = ("/audit/", "/audit/p1", "/audit/p2", "/audit/p3", "/audit/p4")
MISSING = f"https://{HOST}/audit/missing"
URLS = tuple(f"https://{HOST}{path}" for path in PAGES) + (MISSING,)


def route(host, path, query, method, body, headers, web):
    if host != HOST:
        return None
    if path in PAGES:
        links = "".join(f'<a href="{p}">{p}</a> ' for p in PAGES)
        script = "<script>document.cookie='seen=1; max-age=3600; path=/'</script>" if path.endswith("p2") else ""
        html = f"<!doctype html><html><head><title>{path}</title></head><body><h1>{path}</h1>{links}{script}</body></html>"
        return 200, {"Content-Type": "text/html; charset=utf-8"}, html.encode()
    if not path.startswith("/audit/"):
        return None
    return 404, {"Content-Type": "text/html"}, b"<!doctype html><title>missing</title><h1>not here</h1>"


def install(web):
    previous, web.extra_route = web.extra_route, route
    return previous


def new_audit(key_id: int, body: dict):
    """Store a queued Audit with ``body`` as its config (commits); the shape R's ``create_audit`` stores.

    ``respectRobots`` defaults to False here: the site is on ``https://plain.example`` and the fixture web's
    certificate names no host, so discovery's verified robots.txt fetch fails and RFC 9309 makes an
    unreachable robots.txt a complete disallow (every page ``excluded``, reason ``robots``).
    """
    body = {"respectRobots": False, **body}
    from tagcrawl.core.audit_models import Audit
    from tagcrawl.core.extensions import db

    from tagcrawl.audit.config import config_hash

    audit = Audit(api_key_id=key_id, config=body, config_hash=config_hash(body))
    db.session.add(audit)
    db.session.commit()
    return audit
