"""flask CLI group ``audit``: run a site audit to its end in this process, or show an audit's status.

``flask --app wsgi audit run URL [URL...]`` stores an audit (owned by the API key ``cli-audits``,
made on first use), starts it, and runs the queue's worker in this process until the audit ends,
drawing its progress on stderr (pages finished / discovered, rate, ETA); on PostgreSQL other
``flask worker`` processes share the work.  Ctrl-C cancels the audit.  The status shape is the API's
(``audit.store.status_of``: ``rate`` pages per minute, ``eta`` seconds); the files are the report's
(``--json`` the report JSON, ``--csv`` its pages x vendors CSV, ``--html`` the page of ``/audits/<id>``).
Exit status: 0; 1 when an expectation of the report fails; 2 for a body the API would refuse (400);
3 when the audit did not end ``done``.
"""
from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from tagcrawl.core.settings import current_settings

EXIT_OK, EXIT_EXPECTATION, EXIT_USAGE, EXIT_SERVICE = 0, 1, 2, 3
CLI_KEY_NAME = "cli-audits"
#: Largest --max-pages of the CLI (the API has its own operator cap).
MAX_PAGES = 100_000


@click.group("audit")
def audit() -> None:
    """Site audits: every page of a site, once per consent scenario (docs/audits.md)."""


def _consents(_ctx, param, value: str) -> tuple[str, ...]:
    actions = tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    bad = [a for a in actions if a not in ("accept", "reject", "none")]
    if bad or not actions:
        raise click.BadParameter("a comma-separated list of accept, reject, none", param=param)
    return actions


@audit.command("run")
@click.argument("urls", nargs=-1, required=True, metavar="URL [URL...]")
@click.option("--sitemap", "sitemaps", multiple=True, metavar="URL", help="A sitemap (repeat for more).")
@click.option("--max-pages", type=click.IntRange(1, MAX_PAGES), default=500, show_default=True)
@click.option("--max-depth", type=click.IntRange(0, 20), default=3, show_default=True)
@click.option("--expectations", "expectations_file", type=click.File("r", encoding="utf-8"),
              help="A JSON file: the list of expectations (the API's `expectations`; at most 1 MiB read).")
@click.option("--ignore-robots", is_flag=True, help="Crawl pages robots.txt disallows (respectRobots false).")
@click.option("--consent", "consents", default="accept", callback=_consents, show_default=True,
              help="Consent scenarios, comma-separated: accept, reject, none.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, writable=True), help="Write the report as JSON.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, writable=True), help="Write the pages as CSV.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True), help="Write the HTML report.")
@with_appcontext
def run_command(urls, sitemaps, max_pages, max_depth, expectations_file, ignore_robots, consents, json_file,
                csv_file, html_file) -> None:
    """Audit the site of URL now, in this process, and print the summary."""
    from tagcrawl.audit.runner import cancel_audit, ensure_worker, start_audit
    from tagcrawl.cli.firstrun import require_schema

    require_schema(exit_code=EXIT_SERVICE)
    body = {"startUrls": list(urls), "sitemaps": list(sitemaps) or None, "maxPages": max_pages,
            "maxDepth": max_depth, "consentActions": list(consents), "respectRobots": not ignore_robots}
    if expectations_file is not None:
        body["expectations"] = _json_file(expectations_file)
    audit_row = _create_audit(body)
    click.echo(f"audit {audit_row.id}: {', '.join(urls)}", err=True)
    ensure_worker(current_app._get_current_object())
    try:
        start_audit(audit_row.id)
        status = _follow(audit_row.id)
    except KeyboardInterrupt:
        cancel_audit(audit_row.id)
        click.echo("\ncancelled", err=True)
        raise SystemExit(130) from None
    finally:
        from tagcrawl.audit.runner import stop_worker

        stop_worker()
    code = _finish_output(audit_row.id, {"json": json_file, "csv": csv_file, "html": html_file})
    raise SystemExit(EXIT_SERVICE if status["status"] != "done" else code)


@audit.command("status")
@click.argument("audit_id")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@with_appcontext
def status_command(audit_id, as_json) -> None:
    """Print an audit's status, page counts, rate (pages/min) and ETA (the API's ``AuditStatus``)."""
    from tagcrawl.audit.store import get_audit, status_of

    row = get_audit(audit_id, None)
    if row is None:
        raise click.ClickException(f"no audit {audit_id}")
    status = status_of(row)
    click.echo(json.dumps(status, indent=2) if as_json else _line(status))


def _json_file(handle, max_chars: int = 1024 * 1024):
    """The JSON value of an opened file, at most ``max_chars`` characters read; exits 2 when it is longer
    or no JSON (the schema validates the value itself)."""
    text = handle.read(max_chars + 1)
    try:
        if len(text) > max_chars:
            raise ValueError(f"longer than {max_chars} characters")
        return json.loads(text)
    except ValueError as err:
        click.echo(f"refused: {handle.name}: {err}", err=True)
        raise SystemExit(EXIT_USAGE) from None


def _create_audit(body: dict):
    """Validate and store the audit (status queued) for the CLI's key (``config.create_audit``: the API's
    schema and operator caps).  A refused body exits 2 with the schema's messages."""
    from marshmallow import ValidationError

    from tagcrawl.accounts.apikeys import create_key
    from tagcrawl.audit.config import create_audit
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import ApiKey

    key = db.session.scalars(db.select(ApiKey).filter_by(name=CLI_KEY_NAME)).first()
    if key is None:
        key, _key, _secret = create_key(CLI_KEY_NAME)
    try:
        return create_audit(body, key.id, current_app._get_current_object())
    except ValidationError as err:
        click.echo(f"refused: {json.dumps(err.messages, default=str)}", err=True)
        raise SystemExit(EXIT_USAGE) from None


def _line(status: dict) -> str:
    pages = status["pages"]
    finished, total = pages["done"] + pages["failed"], pages["discovered"] - pages["excluded"]
    rate = f"{status['rate']:.1f} pages/min" if status["rate"] else "- pages/min"
    eta = status["eta"]
    eta_text = "-" if eta is None else f"{eta // 60:d}:{eta % 60:02d}"
    return (f"{status['status']}: {finished}/{total} pages ({pages['failed']} failed, {pages['excluded']} excluded)"
            f", {rate}, ETA {eta_text}")


def _follow(audit_id: str) -> dict:
    """Redraw the progress line after every page until the audit ends; returns its last status."""
    from tagcrawl.audit.runner import progress
    from tagcrawl.audit.store import status_of
    from tagcrawl.core.audit_models import Audit
    from tagcrawl.core.extensions import db

    poll = max(0.2, current_settings().job_poll_s)
    while True:
        status = status_of(db.session.get(Audit, audit_id, populate_existing=True))
        db.session.rollback()
        click.echo("\r" + _line(status).ljust(100), nl=False, err=True)
        if status["status"] in ("done", "failed", "cancelled"):
            click.echo("", err=True)
            return status
        with progress:  # a page recorded here, or the poll interval (pages recorded by other workers)
            progress.wait(timeout=poll)


def _finish_output(audit_id: str, opts: dict) -> int:
    """Print the summary, write the requested files (``opts``: ``json``, ``csv``, ``html`` paths or None)
    from the audit's report; returns 1 when an expectation of the report failed, else 0."""
    from tagcrawl.audit import store
    from tagcrawl.cli.audit_report import summary_lines, write_files

    audit_row = store.get_audit(audit_id, None)
    report = store.report_of(audit_row)
    click.echo("\n".join(summary_lines(report["summary"])))
    write_files(audit_row, report, opts)
    return EXIT_EXPECTATION if report["summary"]["expectationsFailed"] else EXIT_OK
