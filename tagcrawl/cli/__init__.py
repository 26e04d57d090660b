"""The flask CLI: one module per command group (``keys``, ``tokens``,
``domains``, ``events``, ``webhooks``, ``pixels``, ``openapi``, ``audit``) plus the
``crawl``, ``worker`` and ``version`` commands.  Logic lives in the services;
commands parse options, call them, and echo (the secret or id last, for
scripts; list commands a header line, or JSON with ``--json``).
``register(app)`` adds them to ``app.cli``, each that needs the schema wrapped
so that a database without it is one line saying ``run: flask --app wsgi db
upgrade`` (``firstrun.py``).  The reference, generated from these commands, is
docs/cli.md (``python -m tools.cli_doc --write``)."""
from __future__ import annotations

import click
from flask import Flask


@click.command("version")
def version_command() -> None:
    """Print tagcrawl's version (``flask --version`` prints Flask's)."""
    from tagcrawl.core.version import __version__

    click.echo(f"tagcrawl {__version__}")


def register(app: Flask) -> None:
    """Register every CLI group on ``app``."""
    from tagcrawl.cli.audit import audit
    from tagcrawl.cli.crawl import crawl_command
    from tagcrawl.cli.domains import domains
    from tagcrawl.cli.events import events
    from tagcrawl.cli.firstrun import guard_commands
    from tagcrawl.cli.keys import keys
    from tagcrawl.cli.openapi import openapi
    from tagcrawl.cli.pixels import pixels
    from tagcrawl.cli.tokens import tokens
    from tagcrawl.cli.webhooks import webhooks
    from tagcrawl.cli.worker import worker_command

    commands = (keys, crawl_command, tokens, domains, events, webhooks, pixels, version_command, worker_command,
                audit)
    guard_commands(commands)
    for command in commands:
        app.cli.add_command(command)
    app.cli.add_command(openapi)  # replaces flask-smorest's group: one document (cli/openapi.py)
