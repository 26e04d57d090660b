"""flask CLI group ``openapi``: the OpenAPI document, as ``/openapi.json`` serves it.

It replaces flask-smorest's own ``openapi`` group (registered by its ``Api``),
which prints the raw apispec document; both commands here print
``web.openapi.document(app)``, the one function behind ``/openapi.json``.
"""
from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import AppGroup

from tagcrawl.web.openapi import document

openapi = AppGroup("openapi", help="The OpenAPI 3.1 document (the same as GET /openapi.json).")


def _text() -> str:
    return json.dumps(document(current_app._get_current_object()), indent=2, ensure_ascii=False)


@openapi.command("print")
def openapi_print() -> None:
    """Print the OpenAPI document (JSON) to stdout."""
    click.echo(_text())


@openapi.command("write")
@click.argument("output_file", type=click.File(mode="w", encoding="utf-8"))
def openapi_write(output_file) -> None:
    """Write the OpenAPI document (JSON) to OUTPUT_FILE (- for stdout)."""
    click.echo(_text(), file=output_file)
