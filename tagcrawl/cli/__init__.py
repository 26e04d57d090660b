"""The flask CLI: one module per command group (``keys``, ``tokens``,
``domains``, ``events``, ``webhooks``, ``pixels``, ``openapi``) plus the ``crawl``
and ``worker`` commands.
Logic lives in the services; commands parse options, call them, and echo (the
secret or id last, for scripts).  ``register(app)`` adds them to ``app.cli``."""
from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """Register every CLI group on ``app``."""
    from tagcrawl.cli.crawl import crawl_command
    from tagcrawl.cli.domains import domains
    from tagcrawl.cli.events import events
    from tagcrawl.cli.keys import keys
    from tagcrawl.cli.openapi import openapi
    from tagcrawl.cli.pixels import pixels
    from tagcrawl.cli.tokens import tokens
    from tagcrawl.cli.webhooks import webhooks
    from tagcrawl.cli.worker import worker_command

    for group in (keys, crawl_command, tokens, domains, events, webhooks, pixels, worker_command):
        app.cli.add_command(group)
    app.cli.add_command(openapi)  # replaces flask-smorest's group: one document (cli/openapi.py)
