"""The flask CLI: one module per command group (``keys``, ``tokens``,
``domains``, ``events``, ``webhooks``, ``pixels``) plus the ``crawl`` command.
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
    from tagcrawl.cli.pixels import pixels
    from tagcrawl.cli.tokens import tokens
    from tagcrawl.cli.webhooks import webhooks

    for group in (keys, crawl_command, tokens, domains, events, webhooks, pixels):
        app.cli.add_command(group)
