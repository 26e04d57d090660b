"""``flask pixels``: classify captured traffic offline, and the per-key HAR
secrets opt-in (``flask pixels har-secrets NAME --allow|--deny``)."""
from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from tagcrawl.engine.har.read import MAX_HAR_BYTES, HarError, classify_har

pixels = AppGroup("pixels", help="Marketing pixels in captured traffic (HAR files).")


@pixels.command("from-har")
@click.argument("har_file", type=click.File("rb"))
def from_har(har_file) -> None:
    """Print the marketing pixels of HAR_FILE (any HAR 1.2, e.g. saved from
    Chrome DevTools; ``-`` reads stdin) as one JSON object keyed by HAR page id
    (``pages[].id``; entries without ``pageref`` under ``""``), each value a
    ``marketingPixels`` list as the crawl API returns it.  Skipped entries are
    counted on stderr; a file the reader refuses is one line on stderr, exit
    status 1 (bounds and messages: ``engine/har/read.py``, docs/har.md)."""
    raw = har_file.read(MAX_HAR_BYTES + 1)  # one byte more: load_har says "too large"
    notes: list[str] = []
    try:
        result = classify_har(raw, notes)
    except HarError as exc:
        raise click.ClickException(str(exc)) from None
    for note in notes:
        click.echo(f"note: {note}", err=True)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


@pixels.command("har-secrets")
@click.argument("name")
@click.option("--allow/--deny", default=False, help="Keep (allow) or redact (deny, the default) secrets.")
def har_secrets(name: str, allow: bool) -> None:
    """Opt API key NAME in (``--allow``) or out of keeping sensitive headers
    (cookie, set-cookie, authorization) in the HAR stored with its crawls."""
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import ApiKey, by_name

    row = by_name(ApiKey, name, click.ClickException, "API key")
    row.har_secrets = allow
    db.session.commit()
    click.echo(f"API key {name!r}: HAR of new crawls {'keeps' if allow else 'redacts'} sensitive headers")
