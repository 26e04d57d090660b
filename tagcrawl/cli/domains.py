"""flask CLI group ``domains``: customers' whitelisted domains (add, remove, list)."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from tagcrawl.cli.listing import emit, json_option


domains = AppGroup("domains", help="Customers' whitelisted domains (example.com or *.example.com).")


@domains.command("add")
@click.option("--customer", required=True, help="Customer name (created if needed).")
@click.argument("patterns", nargs=-1, required=True)
def domains_add(customer: str, patterns: tuple[str, ...]) -> None:
    """Whitelist PATTERNS (example.com, *.example.com) for a customer."""
    from tagcrawl.stream.tenants import add_domains

    try:
        added = add_domains(customer, patterns)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"added {', '.join(added) if added else 'nothing (already whitelisted)'} for {customer!r}")


@domains.command("remove")
@click.option("--customer", required=True, help="Customer name.")
@click.argument("pattern")
def domains_remove(customer: str, pattern: str) -> None:
    """Remove PATTERN from a customer's whitelist."""
    from tagcrawl.stream.tenants import remove_domain

    try:
        remove_domain(customer, pattern)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"removed {pattern} for {customer!r}")


@domains.command("list")
@click.option("--customer", default=None, help="Only this customer's domains.")
@json_option
def domains_list(customer: str | None, as_json: bool) -> None:
    """List whitelisted domains: customer, pattern."""
    from tagcrawl.stream.tenants import list_domains

    rows = [{"customer": name, "pattern": pattern} for name, pattern in list_domains(customer)]
    emit(("customer", "pattern"), rows, as_json)
