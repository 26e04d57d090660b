"""Test helpers shared by tests/unit, tests/db and tests/browser: case tables,
throw-away servers (PostgreSQL, gunicorn, webhook receiver), settings, and the
offline fixture web (``web/``)."""
