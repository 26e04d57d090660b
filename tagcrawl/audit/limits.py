"""The operator's limits on site audits, per API key (docs/audits.md, "Limits").

``core/settings.py`` is at its size cap, so the audit limits are read here, the
same way: environment variable ``TAGCRAWL_<NAME>``, overridden by the app's
config key ``<NAME>`` (``create_app({"AUDIT_MAX_PAGES": 50})``).  Integers only;
a value that does not parse is a ``ConfigError`` naming the variable.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields

from tagcrawl.core.settings import ConfigError


@dataclass(frozen=True)
class AuditLimits:
    """Limits of audits per API key.

    - ``audit_max_pages``: the cap of a request's ``maxPages`` (over it: 400);
    - ``audit_max_running``: audits queued or running at once (over it: 429);
    - ``audit_max_schedules``: schedules per key (over it: 400);
    - ``audit_schedule_min_interval_s``: the shortest gap, in seconds, between two runs of a cron expression;
    - ``audit_share_ttl_s``: lifetime in seconds of a shared HTML report link.
    """

    audit_max_pages: int = 5000
    audit_max_running: int = 3
    audit_max_schedules: int = 10
    audit_schedule_min_interval_s: int = 3600
    audit_share_ttl_s: int = 7 * 24 * 3600

    @classmethod
    def load(cls, config=None, environ=None) -> "AuditLimits":
        """The limits from ``environ`` (default ``os.environ``) then ``config`` (a Flask config mapping).

        Raises:
            ConfigError: a value is not an integer >= 0.
        """
        env = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            key = f.name.upper()
            raw = (config or {}).get(key, env.get("TAGCRAWL_" + key))
            if raw is None or raw == "":
                continue
            try:
                values[f.name] = int(raw)
            except (TypeError, ValueError):
                raise ConfigError(f"TAGCRAWL_{key} must be an integer, not {raw!r}") from None
            if values[f.name] < 0:
                raise ConfigError(f"TAGCRAWL_{key} must be >= 0")
        return cls(**values)


def current_limits() -> AuditLimits:
    """The limits of the current Flask app (an app context is needed)."""
    from flask import current_app

    return AuditLimits.load(current_app.config)
