"""flask CLI group ``webhooks``: deliveries of asynchronous crawls (list, redeliver)."""
from __future__ import annotations

import click
from flask.cli import AppGroup

from tagcrawl.cli.listing import emit, iso_time, json_option
from tagcrawl.core.extensions import db
from tagcrawl.core.settings import current_settings

#: Deliveries listed, newest first.
LIST_MAX = 200

webhooks = AppGroup("webhooks", help="Webhook deliveries of asynchronous crawls.")


@webhooks.command("redeliver")
@click.argument("delivery_id")
def webhooks_redeliver(delivery_id: str) -> None:
    """Send delivery DELIVERY_ID again now; prints the attempt's outcome."""
    from tagcrawl.webhooks.queued import redeliver

    try:
        record = redeliver(delivery_id, current_settings())
    except LookupError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{delivery_id}: {record.status_code or record.error} in {record.duration_ms} ms")


@webhooks.command("list")
@click.option("--status", type=click.Choice(["pending", "delivered", "failed"]), default=None,
              help="Only deliveries in this state.")
@json_option
def webhooks_list(status: str | None, as_json: bool) -> None:
    """List the 200 newest deliveries: id, status, attempts, last status code, URL."""
    from tagcrawl.core.models import WebhookDelivery

    query = db.select(WebhookDelivery).order_by(WebhookDelivery.created_at.desc()).limit(LIST_MAX)
    if status:
        query = query.filter_by(status=status)
    rows = [{"id": str(row.id), "status": row.status, "attempts": row.attempts,
             "last_status": row.attempt_log[-1].status_code if row.attempt_log else None,
             "url": row.url, "created_at": iso_time(row.created_at)} for row in db.session.scalars(query)]
    emit(("id", "status", "attempts", "last_status", "url"), rows, as_json)
