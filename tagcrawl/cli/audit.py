"""flask CLI group ``audit``: run a site audit to its end in this process, or show an audit's status.

``flask --app wsgi audit run URL [URL...]`` stores an audit (owned by the API key ``cli-audits``,
made on first use), starts it, and runs the queue's worker in this process until the audit ends,
drawing its progress on stderr (pages finished / discovered, rate, ETA); on PostgreSQL other
``flask worker`` processes share the work.  Ctrl-C cancels the audit.  Exit status: 0, 1 when an
expectation fails (``_finish_output``), 3 when the audit did not end ``done``.
"""
from __future__ import annotations

import hashlib
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
@click.option("--consent", "consents", default="accept", callback=_consents, show_default=True,
              help="Consent scenarios, comma-separated: accept, reject, none.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, writable=True), help="Write the report as JSON.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, writable=True), help="Write the pages as CSV.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True), help="Write the HTML report.")
@with_appcontext
def run_command(urls, sitemaps, max_pages, max_depth, consents, json_file, csv_file, html_file) -> None:
    """Audit the site of URL now, in this process, and print the summary."""
    from tagcrawl.audit.runner import cancel_audit, ensure_worker, start_audit
    from tagcrawl.cli.firstrun import require_schema

    require_schema(exit_code=EXIT_SERVICE)
    body = {"startUrls": list(urls), "sitemaps": list(sitemaps) or None, "maxPages": max_pages,
            "maxDepth": max_depth, "consentActions": list(consents)}
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
    raise SystemExit(code if status["status"] == "done" else EXIT_SERVICE)


@audit.command("status")
@click.argument("audit_id")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@with_appcontext
def status_command(audit_id, as_json) -> None:
    """Print an audit's status, page counts, rate and ETA."""
    from tagcrawl.audit.finish import status_of
    from tagcrawl.core.audit_models import Audit
    from tagcrawl.core.extensions import db

    row = db.session.get(Audit, audit_id)
    if row is None:
        raise click.ClickException(f"no audit {audit_id}")
    status = status_of(row)
    click.echo(json.dumps(status, indent=2) if as_json else _line(status))


def _create_audit(body: dict):
    """Store the audit (status queued) for the CLI's key.  The seam for ``tagcrawl.audit.config.create_audit``
    (validation, quotas): until it lands, the body is stored as given."""
    from tagcrawl.accounts.apikeys import create_key
    from tagcrawl.core.audit_models import Audit
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import ApiKey

    key = db.session.scalars(db.select(ApiKey).filter_by(name=CLI_KEY_NAME)).first()
    if key is None:
        key, _key, _secret = create_key(CLI_KEY_NAME)
    canonical = json.dumps({k: v for k, v in body.items() if k != "webhook"}, sort_keys=True)
    row = Audit(api_key_id=key.id, config=body, config_hash=hashlib.sha256(canonical.encode()).hexdigest())
    db.session.add(row)
    db.session.commit()
    return row


def _line(status: dict) -> str:
    pages = status["pages"]
    finished, total = pages["done"] + pages["failed"], pages["discovered"] - pages["excluded"]
    rate = f"{status['ratePerHour']:.0f} pages/h" if status["ratePerHour"] else "- pages/h"
    eta = status["etaSeconds"]
    eta_text = "-" if eta is None else f"{eta // 60:d}:{eta % 60:02d}"
    return (f"{status['status']}: {finished}/{total} pages ({pages['failed']} failed, {pages['excluded']} excluded)"
            f", {rate}, ETA {eta_text}")


def _follow(audit_id: str) -> dict:
    """Redraw the progress line after every page until the audit ends; returns its last status."""
    from tagcrawl.audit.finish import status_of
    from tagcrawl.audit.runner import progress
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
    """Print the summary, write the requested files, evaluate the expectations; returns the exit status.

    The seam for the report code (tagcrawl/audit/report.py, expectations.py: the lead wires them at
    merge): on this branch it prints the page counts, ``--json`` writes the status and every page's
    compact result, ``--csv`` one line per page (url, scenario, status, pageStatus, pixels), and
    ``--html`` is not available yet; no expectation fails."""
    import csv

    from tagcrawl.audit.finish import status_of
    from tagcrawl.core.audit_models import Audit, AuditPage
    from tagcrawl.core.extensions import db

    row = db.session.get(Audit, audit_id)
    status = status_of(row)
    click.echo(json.dumps(row.summary or status["pages"], indent=2))
    pages = db.session.scalars(db.select(AuditPage).where(AuditPage.audit_id == audit_id)
                               .order_by(AuditPage.url, AuditPage.scenario)).all()
    if opts.get("json"):
        with open(opts["json"], "w", encoding="utf-8") as out:
            json.dump({**status, "summary": row.summary, "pages": [
                {"url": p.url, "scenario": p.scenario, "status": p.status, "reason": p.reason,
                 "crawlId": p.crawl_id, "result": p.result} for p in pages]}, out, indent=1, default=str)
    if opts.get("csv"):
        with open(opts["csv"], "w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["url", "scenario", "status", "pageStatus", "pixels"])
            for p in pages:
                result = p.result or {}
                writer.writerow([p.url, p.scenario, p.status, result.get("pageStatus"), len(result.get("pixels") or [])])
    if opts.get("html"):
        click.echo("note: --html needs the audit report (tagcrawl/audit/report.py), not written", err=True)
    return EXIT_OK
