"""How the CLI's list commands print: a header line then one tab-separated
line per row, or with ``--json`` one JSON array of objects (for scripts).
Times are ISO 8601 UTC (``2026-11-22T10:00:00Z``); in the table an absent
value is ``-``, a flag ``yes``/``no`` and a list comma-joined."""
from __future__ import annotations

import json
from datetime import datetime

import click

json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print a JSON array of objects instead of the table.")


def iso_time(value: datetime | None) -> str | None:
    """``value`` (aware or naive UTC) as ``YYYY-MM-DDTHH:MM:SSZ``, or None."""
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def emit(columns: tuple[str, ...], rows: list[dict], as_json: bool) -> None:
    """Print ``rows`` (dicts with at least ``columns`` as keys; JSON-serialisable
    values) as a table with a header of the upper-cased ``columns``, or as JSON
    (every key of each row).  The caller bounds ``rows`` (its query's limit)."""
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo("\t".join(column.upper() for column in columns))
    for row in rows:
        click.echo("\t".join(_cell(row[c]) for c in columns))


def _cell(value) -> str:
    """A table cell: ``-`` for None or an empty list, ``yes``/``no``, a list comma-joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value)) or "-"
    return "-" if value is None else str(value)
