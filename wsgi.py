"""WSGI entry point: ``gunicorn wsgi:app`` and ``flask --app wsgi``.

A setting the environment gets wrong (``ConfigError``: an unsupported
``DATABASE_URL``, a number that is not one) is one line on stderr and exit
status 1 under the flask CLI, instead of a traceback followed by Flask's
"No such command".  Under gunicorn it stays an exception, so the arbiter
stops on a worker that cannot boot rather than respawning it.
"""
import os
import sys

from tagcrawl import create_app
from tagcrawl.core.settings import ConfigError

try:
    app = create_app()
except ConfigError as exc:
    if os.environ.get("FLASK_RUN_FROM_CLI") != "true":  # set by the flask command before it loads the app
        raise
    sys.exit(f"Error: {exc}")
