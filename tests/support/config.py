"""Test configuration as ``Settings``: tests keep their overrides as Flask-style
dicts (``{"QUIET_MS": 400}``) and turn them into the service's typed settings here."""
from __future__ import annotations

from tagcrawl.core.settings import Settings


def settings(config) -> Settings:
    """``Settings`` from the environment plus ``config`` (a dict of upper-case
    keys, or already a ``Settings``, returned as it is)."""
    return config if isinstance(config, Settings) else Settings.from_env(overrides=config)


def reconfigure(app, overrides: dict) -> None:
    """Give a test's ``app`` new settings (the app's ``Settings`` is frozen: it is replaced)."""
    from tagcrawl.core.settings import SETTINGS_KEY, settings_of

    app.extensions[SETTINGS_KEY] = settings_of(app).replace(**overrides)
    app.config.update(overrides)
