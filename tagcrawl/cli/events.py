"""flask CLI group ``events``: stored stream events (export)."""
from __future__ import annotations

import click
from flask.cli import AppGroup


events = AppGroup("events", help="Stored stream events.")


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

    from tagcrawl.stream.events import EventFilter, count_events, parse_time
    from tagcrawl.stream.export import export_events

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
