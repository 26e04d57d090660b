"""flask CLI group ``keys``: API keys of the crawl API (create, webhook URL
and signing secret, grants of customers' events, revocation).  Registered by
``commands.init_app``; logic lives in ``apikeys`` and ``grants``."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from tagcrawl.accounts.apikeys import create_key
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
def keys_list() -> None:
    """List API keys (names and prefixes, never the keys)."""
    for row in db.session.scalars(db.select(ApiKey).order_by(ApiKey.id)):
        state = "revoked" if row.revoked_at else "active"
        click.echo(f"{row.name}\t{row.key_prefix}…\t{state}\t{row.webhook_url or '-'}")


@keys.command("grant")
@click.argument("name")
@click.option("--customer", "customers", multiple=True, help="Customer whose events the key may read (repeatable).")
@click.option("--all-customers", is_flag=True, help="Let the key read every customer's events (admin).")
def keys_grant(name: str, customers: tuple[str, ...], all_customers: bool) -> None:
    """Let API key NAME read the events of --customer C (or --all-customers)."""
    from tagcrawl.accounts.grants import GrantError, grant, set_all_customers

    if not customers and not all_customers:
        raise click.UsageError("give --customer NAME or --all-customers")
    try:
        if all_customers:
            set_all_customers(name, True)
            click.echo(f"{name}: all customers")
        for customer in customers:
            click.echo(f"{name}: {customer}" + ("" if grant(name, customer) else " (already granted)"))
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
