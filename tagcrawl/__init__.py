"""tagcrawl: audits marketing tags (crawl) and ingests browser-tag events (stream)."""
from __future__ import annotations

import logging
import os

from flask import Flask

__version__ = "0.1.0"


def create_app(config: dict | None = None) -> Flask:
    """Application factory: settings, extensions, blueprints, errors, CLI.

    Args:
        config: overrides applied after the environment (tests pass theirs here).
    """
    from . import commands, docs_blueprint, errors, limits
    from .crawl.blueprint import bp as crawl_bp
    from .dbtimeouts import engine_options
    from .health import bp as health_bp
    from .extensions import db, migrate
    from .settings import database_url, load_settings
    from .stream.blueprint import bp as stream_bp
    from .stream.events_api import bp as events_bp
    from .stream.tagjs import bp as tag_bp

    app = Flask(__name__, instance_relative_config=True)
    app.config.update(load_settings())
    app.config.update(config or {})
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.setdefault("INSTANCE_PATH", app.instance_path)
    app.config.setdefault("SQLALCHEMY_DATABASE_URI", database_url(app.config.get("DATABASE_URL_RAW"), app.instance_path))
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS",
                          engine_options(app.config, str(app.config["SQLALCHEMY_DATABASE_URI"])))
    app.json.sort_keys = False
    logging.basicConfig(level=os.environ.get("TAGCRAWL_LOG_LEVEL", "INFO"))

    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "migrations"))
    errors.register_error_handlers(app)
    for blueprint in (crawl_bp, stream_bp, events_bp, tag_bp, health_bp):
        app.register_blueprint(blueprint)
    docs_blueprint.init_app(app)
    limits.init_app(app)  # after every blueprint: it wraps their views
    commands.init_app(app)
    return app
