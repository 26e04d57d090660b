"""flask CLI group ``tokens``: ingestion tokens of the stream endpoint (issue, revoke, list)."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from tagcrawl.cli.listing import emit, iso_time, json_option


tokens = AppGroup("tokens", help="Ingestion tokens of the stream endpoint.")


def _fmt_time(value) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value else "never"



@tokens.command("issue")
@click.option("--customer", required=True, help="Customer name (created if needed).")
@click.option("--domain", "domain_patterns", multiple=True,
              help="Whitelist this domain for the customer (repeatable): example.com or *.example.com.")
@click.option("--ttl-days", type=click.IntRange(min=0), default=365, show_default=True,
              help="Days until the token expires; 0 for never.")
def tokens_issue(customer: str, domain_patterns: tuple[str, ...], ttl_days: int) -> None:
    """Issue an ingestion token; prints the token as the last line."""
    from tagcrawl.stream.tenants import issue_token

    try:
        row = issue_token(customer, domain_patterns, ttl_days)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"issued a token for {customer!r}, expires {_fmt_time(row.expires_at)}; "
               f"whitelist: {', '.join(d.pattern for d in row.customer.domains)}")
    click.echo(row.token)


@tokens.command("revoke")
@click.argument("token")
def tokens_revoke(token: str) -> None:
    """Revoke TOKEN (other processes stop accepting it within 60 s)."""
    from tagcrawl.stream.tenants import revoke_token

    try:
        row = revoke_token(token)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"revoked {row.token}")


@tokens.command("list")
@click.option("--customer", default=None, help="Only this customer's tokens.")
@json_option
def tokens_list(customer: str | None, as_json: bool) -> None:
    """List tokens: token, customer, expiry (``-``: never), state (active,
    expired or revoked)."""
    from tagcrawl.stream.tenants import list_tokens

    rows = [{"token": item["token"], "customer": item["customer"], "created_at": iso_time(item["created_at"]),
             "expires_at": iso_time(item["expires_at"]), "state": item["state"]} for item in list_tokens(customer)]
    emit(("token", "customer", "expires_at", "state"), rows, as_json)
