"""tagcrawl: audits marketing tags (crawl) and ingests browser-tag events (stream)."""
from __future__ import annotations

import logging
import os

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .version import __version__  # noqa: F401  (re-exported)

def create_app(config: dict | None = None, *, clock=None) -> Flask:
    """Application factory: settings, extensions, blueprints, errors, CLI.

    Args:
        config: overrides applied after the environment (tests pass theirs here).
        clock: callable returning the current time as an aware UTC datetime
            (default ``models.utcnow``); the stream stamps events with it.
            Tests pass a fixed clock here: it is not a setting.
    """
    from . import commands, docs_blueprint, errors, openapi, ratelimits
    from .crawl.blueprint import bp as crawl_bp
    from .crawl.blueprint import meta as meta_bp
    from .dbtimeouts import engine_options
    from .health import bp as health_bp
    from .extensions import db, migrate
    from .models import utcnow
    from .settings import SETTINGS_KEY, Settings, database_url
    from .stream.blueprint import bp as stream_bp
    from .stream.events_api import bp as events_bp
    from .stream.tagjs import bp as tag_bp
    from .utctime import CLOCK_KEY

    app = Flask(__name__, instance_relative_config=True)
    app.extensions[CLOCK_KEY] = clock or utcnow
    settings = Settings.from_env(overrides={"INSTANCE_PATH": app.instance_path, **(config or {})})
    app.extensions[SETTINGS_KEY] = settings
    app.config.update(config or {})
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.setdefault("SQLALCHEMY_DATABASE_URI", database_url(settings.database_url_raw, app.instance_path))
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS",
                          engine_options(settings, str(app.config["SQLALCHEMY_DATABASE_URI"])))
    app.json.sort_keys = False
    if settings.trusted_proxies > 0:  # the client IP from X-Forwarded-For, set by that many proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)
    logging.basicConfig(level=settings.log_level)

    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "migrations"))
    openapi.init_app(app)
    errors.register_error_handlers(app)  # after openapi: they replace flask-smorest's error shape
    for blueprint, url_prefix in ((meta_bp, ""), (crawl_bp, "/api/v1"), (events_bp, "/api/v1"),
                                  (stream_bp, "/stream"), (tag_bp, "/stream"), (docs_blueprint.bp, ""),
                                  (health_bp, "")):
        openapi.register(app, blueprint, url_prefix)
    ratelimits.init_app(app)  # after every blueprint: it applies their declared limits
    commands.init_app(app)
    return app
