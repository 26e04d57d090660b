"""flask CLI: one group per resource.  Logic lives in services; commands
parse options, call them, and echo (the secret or id last, for scripts)."""
from __future__ import annotations

import json

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from .apikeys import create_key
from .extensions import db
from .models import ApiKey, utcnow
from .schemas import CrawlRequestSchema

keys = AppGroup("keys", help="API keys for the crawl API.")


@keys.command("create")
@click.argument("name")
@click.option("--webhook-url", default=None, help="Where results of webhook crawls are POSTed.")
def keys_create(name: str, webhook_url: str | None) -> None:
    """Create an API key; prints the key as the last line."""
    try:
        _row, key, secret = create_key(name, webhook_url)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"created API key {name!r}; store it now, it is not shown again")
    click.echo(f"secret: {secret}")
    click.echo(key)


@keys.command("list")
def keys_list() -> None:
    """List API keys (names and prefixes, never the keys)."""
    for row in db.session.scalars(db.select(ApiKey).order_by(ApiKey.id)):
        state = "revoked" if row.revoked_at else "active"
        click.echo(f"{row.name}\t{row.key_prefix}…\t{state}\t{row.webhook_url or '-'}")


@keys.command("revoke")
@click.argument("name")
def keys_revoke(name: str) -> None:
    """Revoke the API key called NAME."""
    row = db.session.scalar(db.select(ApiKey).filter_by(name=name))
    if row is None:
        raise click.ClickException(f"no API key named {name!r}")
    row.revoked_at = utcnow()
    db.session.commit()
    click.echo(f"revoked {name}")


@click.command("crawl")
@click.argument("url")
@click.option("--no-consent", is_flag=True, help="Do not click the consent banner.")
@click.option("--screenshots", is_flag=True, help="Take screenshots before and after consent.")
@click.option("--country", default=None, help="ISO 3166-1 alpha-2 country code.")
@click.option("--session-id", default=None, help="uuid4 to echo as sessionId.")
def crawl_command(url: str, no_consent: bool, screenshots: bool, country: str | None, session_id: str | None) -> None:
    """Crawl URL now and print the CrawlResponse JSON (no server needed)."""
    from .crawl.records import store_crawl
    from .crawl.service import run_crawl
    from .errors import flatten_errors

    schema = CrawlRequestSchema()
    body = {"url": url, "session_id": session_id,
            "options": {"byPassConsent": not no_consent, "screenShots": screenshots, "country": country}}
    errors = schema.validate(body)
    if errors:
        for problem in flatten_errors(errors, schema):
            click.echo(f"{'.'.join(map(str, problem['loc'][1:]))}: {problem['msg']}", err=True)
        raise SystemExit(2)
    request_json = schema.dump(schema.load(body))
    outcome = run_crawl(current_app.config, request_json)
    store_crawl(request_json, outcome.response, None)
    click.echo(json.dumps(outcome.response, indent=2))


def init_app(app: Flask) -> None:
    """Register every CLI group on ``app``."""
    for group in (keys, crawl_command):
        app.cli.add_command(group)
