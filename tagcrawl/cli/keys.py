"""flask CLI group ``keys``: API keys of the crawl API (create, webhook URL
and signing secret, grants of customers' events, revocation).  Registered by
``cli.register``; logic lives in ``apikeys`` and ``grants``."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from tagcrawl.accounts.apikeys import create_key
from tagcrawl.cli.listing import emit, iso_time, json_option
from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, by_name, utcnow
from tagcrawl.core.settings import current_settings

keys = AppGroup("keys", help="API keys for the crawl API.")


@keys.command("create")
@click.argument("name")
@click.option("--webhook-url", default=None, help="Where results of webhook crawls are POSTed.")
@click.option("--admin", is_flag=True, help="Read every customer's events (default: none until granted).")
def keys_create(name: str, webhook_url: str | None, admin: bool) -> None:
    """Create an API key; prints the webhook signing secret on a line
    ``secret: ...`` and the API key as the last line."""
    _check_webhook_url(webhook_url)
    try:
        _row, key, secret = create_key(name, webhook_url, all_customers=admin)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"created API key {name!r}; store it now, it is not shown again")
    click.echo(f"secret: {secret}")
    click.echo(key)


def _check_webhook_url(url: str | None) -> None:
    from tagcrawl.core.netguard import url_refusal

    if url is None:
        return
    refusal = url_refusal(url, current_settings().allow_private_targets, require_resolvable=True)
    if refusal:
        raise click.BadParameter(f"refused webhook URL: {refusal}", param_hint="--webhook-url")


@keys.command("set-webhook")
@click.argument("name")
@click.argument("url", required=False)
@click.option("--rotate-secret", is_flag=True, help="Issue a new signing secret (printed once).")
def keys_set_webhook(name: str, url: str | None, rotate_secret: bool) -> None:
    """Set (or, without URL, remove) the webhook URL of API key NAME."""
    from tagcrawl.webhooks.signing import new_secret

    row = by_name(ApiKey, name, click.ClickException, "API key")
    _check_webhook_url(url)
    row.webhook_url = url
    if rotate_secret:
        row.webhook_secret = new_secret()
    db.session.commit()
    click.echo(f"webhook of {name}: {url or '(none)'}")
    if rotate_secret:
        click.echo(f"secret: {row.webhook_secret}")


@keys.command("list")
@json_option
def keys_list(as_json: bool) -> None:
    """List API keys: name, prefix (the key's first characters, never the
    key), state (active or revoked), all_customers (an admin key), the customers
    it is granted, webhook URL."""
    from tagcrawl.accounts.grants import granted_names

    rows = [{"name": row.name, "prefix": row.key_prefix, "state": "revoked" if row.revoked_at else "active",
             "all_customers": bool(row.all_customers), "customers": granted_names(row),
             "webhook": row.webhook_url, "created_at": iso_time(row.created_at)}
            for row in db.session.scalars(db.select(ApiKey).order_by(ApiKey.id))]
    emit(("name", "prefix", "state", "all_customers", "customers", "webhook"), rows, as_json)


@keys.command("grant")
@click.argument("name")
@click.option("--customer", "customers", multiple=True,
              help="Customer whose events the key may read (repeatable; created if needed).")
@click.option("--all-customers", is_flag=True, help="Let the key read every customer's events (admin).")
def keys_grant(name: str, customers: tuple[str, ...], all_customers: bool) -> None:
    """Let API key NAME read the events of --customer C (or --all-customers).
    A customer not seen yet is created (its tokens can come later)."""
    from tagcrawl.accounts.grants import GrantError, grant, set_all_customers

    if not customers and not all_customers:
        raise click.UsageError("give --customer NAME or --all-customers")
    try:
        if all_customers:
            set_all_customers(name, True)
            click.echo(f"{name}: all customers")
        for customer in customers:
            done = grant(name, customer)
            note = " (new customer)" if done.new_customer else "" if done.new_grant else " (already granted)"
            click.echo(f"{name}: {customer}{note}")
    except GrantError as exc:
        raise click.ClickException(str(exc)) from exc


@keys.command("ungrant")
@click.argument("name")
@click.option("--customer", "customers", multiple=True, help="Customer to withdraw (repeatable).")
@click.option("--all-customers", is_flag=True, help="Withdraw the all-customers flag.")
def keys_ungrant(name: str, customers: tuple[str, ...], all_customers: bool) -> None:
    """Withdraw grants of API key NAME."""
    from tagcrawl.accounts.grants import GrantError, set_all_customers, ungrant

    try:
        if all_customers:
            set_all_customers(name, False)
        for customer in customers:
            ungrant(name, customer)
    except GrantError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{name}: withdrawn")


@keys.command("revoke")
@click.argument("name")
def keys_revoke(name: str) -> None:
    """Revoke the API key called NAME."""
    row = by_name(ApiKey, name, click.ClickException, "API key")
    row.revoked_at = utcnow()
    db.session.commit()
    click.echo(f"revoked {name}")
