"""The web layer: the only package that reads ``flask.request``.  The API
declaration (``edge``, ``openapi``), rate limits, the stream body reader, and
the views (``views/``: one module per resource).  ``register(app)`` wires them."""
from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """Declare the HTTP API on ``app``: the OpenAPI document, the error shapes,
    every blueprint at its prefix, their rate limits, and ``ProxyFix`` when the
    service runs behind ``TRUSTED_PROXIES`` proxies."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    from tagcrawl.core import errors
    from tagcrawl.core.settings import settings_of
    from tagcrawl.web import openapi, ratelimits
    from tagcrawl.web.views import audit_html, audit_schedules, audits, crawl, docs, events, health, stream, tag

    settings = settings_of(app)
    if settings.trusted_proxies > 0:  # the client IP from X-Forwarded-For, set by that many proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)
    openapi.init_app(app)
    errors.register_error_handlers(app)  # after openapi: they replace flask-smorest's error shape
    for blueprint, url_prefix in ((crawl.meta, ""), (crawl.bp, "/api/v1"), (events.bp, "/api/v1"),
                                  (stream.bp, "/stream"), (tag.bp, "/stream"), (docs.bp, ""), (health.bp, ""),
                                  (audits.bp, "/api/v1"), (audit_schedules.bp, "/api/v1"), (audit_html.bp, "")):
        openapi.register(app, blueprint, url_prefix)
    ratelimits.init_app(app)  # after every blueprint: it applies their declared limits
