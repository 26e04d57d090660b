"""flask CLI: one group per resource.  Logic lives in services; commands
parse options, call them, and echo (the secret or id last, for scripts)."""
from __future__ import annotations

import json

import click
from flask import Flask
from flask.cli import AppGroup

from .extensions import db
from .keys_cli import keys
from .schemas import CrawlRequestSchema
from .settings import current_settings

webhooks = AppGroup("webhooks", help="Webhook deliveries of asynchronous crawls.")


@webhooks.command("redeliver")
@click.argument("delivery_id")
def webhooks_redeliver(delivery_id: str) -> None:
    """Send delivery DELIVERY_ID again now; prints the attempt's outcome."""
    from .webhooks.delivery import redeliver

    try:
        record = redeliver(delivery_id, current_settings())
    except LookupError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{delivery_id}: {record.status_code or record.error} in {record.duration_ms} ms")


@webhooks.command("list")
@click.option("--status", type=click.Choice(["pending", "delivered", "failed"]), default=None)
def webhooks_list(status: str | None) -> None:
    """List deliveries: id, status, attempts, last status code, URL."""
    from .models import WebhookDelivery

    query = db.select(WebhookDelivery).order_by(WebhookDelivery.created_at.desc()).limit(200)
    if status:
        query = query.filter_by(status=status)
    for row in db.session.scalars(query):
        last = row.attempt_log[-1].status_code if row.attempt_log else "-"
        click.echo(f"{row.id}\t{row.status}\t{row.attempts}\t{last}\t{row.url}")


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
        for problem in flatten_errors(errors):
            click.echo(f"{'.'.join(map(str, problem['loc'][1:]))}: {problem['msg']}", err=True)
        raise SystemExit(2)
    request_json = schema.dump(schema.load(body))
    outcome = run_crawl(current_settings(), request_json)
    store_crawl(request_json, outcome.response, None)
    click.echo(json.dumps(outcome.response, indent=2))


tokens = AppGroup("tokens", help="Ingestion tokens of the stream endpoint.")
domains = AppGroup("domains", help="Customers' whitelisted domains (example.com or *.example.com).")
events = AppGroup("events", help="Stored stream events.")


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
    from .stream.registry import issue_token

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
    from .stream.registry import revoke_token

    try:
        row = revoke_token(token)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"revoked {row.token}")


@tokens.command("list")
@click.option("--customer", default=None, help="Only this customer's tokens.")
def tokens_list(customer: str | None) -> None:
    """List tokens: token, customer, expiry, state."""
    from .stream.registry import list_tokens

    for item in list_tokens(customer):
        click.echo(f"{item['token']}\t{item['customer']}\texpires {_fmt_time(item['expires_at'])}\t{item['state']}")


@domains.command("add")
@click.option("--customer", required=True, help="Customer name (created if needed).")
@click.argument("patterns", nargs=-1, required=True)
def domains_add(customer: str, patterns: tuple[str, ...]) -> None:
    """Whitelist PATTERNS (example.com, *.example.com) for a customer."""
    from .stream.registry import add_domains

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
    from .stream.registry import remove_domain

    try:
        remove_domain(customer, pattern)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"removed {pattern} for {customer!r}")


@domains.command("list")
@click.option("--customer", default=None, help="Only this customer's domains.")
def domains_list(customer: str | None) -> None:
    """List whitelisted domains: customer, pattern."""
    from .stream.registry import list_domains

    for name, pattern in list_domains(customer):
        click.echo(f"{name}\t{pattern}")


@events.command("export")
@click.option("--since", required=True, help="ISO 8601 time (UTC if no offset) or a duration back: 24h, 7d.")
@click.option("--until", default=None, help="End (exclusive), same forms as --since.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default="jsonl", show_default=True)
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="File to write (default: standard output).")
@click.option("--customer", default=None, help="Only this customer's events.")
@click.option("--domain", default=None, help="Only this registrable domain or host.")
@click.option("--vendor", default=None, help="Only this vendor (catalog key).")
@click.option("--event", "event_name", default=None, help="Only this event name.")
def events_export(since, until, fmt, output, customer, domain, vendor, event_name) -> None:
    """Export events as JSON Lines or CSV, with a progress bar on stderr."""
    import sys

    from .stream.events import EventFilter, count_events, parse_time
    from .stream.export import export_events

    try:
        flt = EventFilter(customer=customer, domain=domain, vendor=vendor, event=event_name,
                          since=parse_time(since), until=parse_time(until) if until else None)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    total = count_events(flt)
    out = open(output, "w", encoding="utf-8", newline="") if output else sys.stdout
    try:
        with click.progressbar(length=total, label=f"exporting {total} events", file=sys.stderr) as bar:
            written = export_events(flt, fmt, out, bar.update)
    finally:
        if output:
            out.close()
        else:
            out.flush()
    click.echo(f"exported {written} events" + (f" to {output}" if output else ""), err=True)


def init_app(app: Flask) -> None:
    """Register every CLI group on ``app``."""
    from .har.cli import pixels

    for group in (keys, crawl_command, tokens, domains, events, webhooks, pixels):
        app.cli.add_command(group)
