"""``flask pixels``: classify captured traffic offline, and the per-key HAR
secrets opt-in (``flask pixels har-secrets NAME --allow|--deny``)."""
from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from .read import HarError, pixels_by_page

pixels = AppGroup("pixels", help="Marketing pixels in captured traffic (HAR files).")

#: Largest HAR file read (bytes); DevTools exports of long sessions stay far below.
MAX_HAR_BYTES = 512 * 1024 * 1024


@pixels.command("from-har")
@click.argument("har_file", type=click.File("rb"))
def from_har(har_file) -> None:
    """Print the marketing pixels of HAR_FILE (any HAR 1.2, e.g. saved from
    Chrome DevTools; ``-`` reads stdin) as one JSON object keyed by HAR page id
    (``pages[].id``; entries without ``pageref`` under ``""``), each value a
    ``marketingPixels`` list as the crawl API returns it."""
    raw = har_file.read(MAX_HAR_BYTES + 1)
    if len(raw) > MAX_HAR_BYTES:
        raise click.ClickException(f"HAR file larger than {MAX_HAR_BYTES} bytes")
    try:
        har = json.loads(raw.decode("utf-8-sig"))
        result = pixels_by_page(har)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # HarError is a ValueError
        kind = "not a HAR file" if isinstance(exc, HarError) else "not JSON"
        raise click.ClickException(f"{kind}: {exc}") from exc
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


@pixels.command("har-secrets")
@click.argument("name")
@click.option("--allow/--deny", default=False, help="Keep (allow) or redact (deny, the default) secrets.")
def har_secrets(name: str, allow: bool) -> None:
    """Opt API key NAME in (``--allow``) or out of keeping sensitive headers
    (cookie, set-cookie, authorization) in the HAR stored with its crawls."""
    from ..extensions import db
    from ..models import ApiKey, by_name

    row = by_name(ApiKey, name, click.ClickException, "API key")
    row.har_secrets = allow
    db.session.commit()
    click.echo(f"API key {name!r}: HAR of new crawls {'keeps' if allow else 'redacts'} sensitive headers")
