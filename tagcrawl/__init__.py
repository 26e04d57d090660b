"""tagcrawl: audits marketing tags (crawl) and ingests browser-tag events (stream).

``create_app`` only wires: settings and database (``core``), the HTTP API
(``web``), the CLI (``cli``).  The layers are described in docs/architecture.md.
"""
from __future__ import annotations

from flask import Flask

from tagcrawl.core.version import __version__  # noqa: F401  (re-exported)


def create_app(config: dict | None = None, *, clock=None) -> Flask:
    """Application factory: settings, extensions, blueprints, errors, CLI.

    Args:
        config: overrides applied after the environment (tests pass theirs here).
        clock: callable returning the current time as an aware UTC datetime
            (default ``models.utcnow``); the stream stamps events with it.
            Tests pass a fixed clock here: it is not a setting.
    Raises:
        ConfigError (``core.settings``): the environment has a setting tagcrawl
            cannot use (an unsupported ``DATABASE_URL``); ``wsgi.py`` prints it as one line.
    """
    from tagcrawl import cli, core, web

    app = Flask(__name__, instance_relative_config=True)
    core.init_app(app, config or {}, clock)  # settings, database, migrations, logging
    web.register(app)  # API declaration, error shape, views, rate limits
    cli.register(app)
    return app
