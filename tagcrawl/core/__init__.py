"""The core layer: settings, errors, extensions, models, clock, hosts, schemas,
bounds.  No request handling, no browser, no vendor catalog: every other layer
may import it, it imports none of them."""
from __future__ import annotations


def init_app(app, config: dict, clock=None) -> None:
    """Bind the core to ``app``: the ``Settings`` (environment plus ``config``),
    the app's clock, the database (with its time limits) and migrations, logging.

    Args:
        app: the Flask app.
        config: overrides applied after the environment (upper-case setting names).
        clock: callable returning the current aware UTC datetime (default ``models.utcnow``).
    """
    import logging
    import os

    from tagcrawl.core.dbtimeouts import engine_options
    from tagcrawl.core.extensions import db, migrate
    from tagcrawl.core import audit_models  # noqa: F401  (registers the audit tables)
    from tagcrawl.core.models import utcnow
    from tagcrawl.core.settings import SETTINGS_KEY, Settings, database_url
    from tagcrawl.core.utctime import CLOCK_KEY

    app.extensions[CLOCK_KEY] = clock or utcnow
    settings = Settings.from_env(overrides={"INSTANCE_PATH": app.instance_path, **config})
    app.extensions[SETTINGS_KEY] = settings
    app.config.update(config)
    os.makedirs(app.instance_path, exist_ok=True)
    if "SQLALCHEMY_DATABASE_URI" not in app.config:  # DATABASE_URL is read (and checked) only when it is used
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url(settings.database_url_raw, app.instance_path)
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS",
                          engine_options(settings, str(app.config["SQLALCHEMY_DATABASE_URI"])))
    app.json.sort_keys = False
    logging.basicConfig(level=settings.log_level)
    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(os.path.dirname(__file__)), "migrations"))
