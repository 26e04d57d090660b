"""``flask audit report|diff``: an audit's report and its diff from the command line
(docs/audits.md, "CLI").  The operator's view: any key's audit, by id.

The two commands are plain click commands that ``cli/__init__.py`` adds to the ``audit``
group (``cli/audit.py``).  Exit codes: 0; 1 when an expectation of the audit
failed (``report``) or when there is no audit to diff against (``diff``); 2 for
an unknown audit id.
"""
from __future__ import annotations

import json

import click


def _audit(audit_id: str):
    from tagcrawl.audit import store

    audit = store.get_audit(audit_id, None)
    if audit is None:
        raise click.UsageError(f"No audit {audit_id!r}.")
    return audit


def summary_lines(summary: dict) -> list[str]:
    """The summary as text lines (``report.build_summary``'s dict): counts, consent, vendors, failures."""
    pages = summary["pages"]
    lines = [f"audit {summary['auditId']}: {summary['status']}",
             f"pages: {pages['discovered']} discovered, {pages['done']} done, {pages['failed']} failed, "
             f"{pages['excluded']} excluded",
             f"consent: {summary['trackersBeforeChoice']} pages with trackers before a choice, "
             f"{summary['violationsAfterRefusal']} with violations after a refusal",
             f"cookies: {summary['cookies']}, third parties: {summary['thirdParties']}, broken: "
             f"{summary['broken']}, blocked: {summary['blocked']}"]
    lines += [f"vendor {v['vendor']}" + (f" {v['accountId']}" if v["accountId"] else "") +
              f": {v['pageCount']} pages" + (f", missing on {v['missingPageCount']}" if v["missingPageCount"] else "")
              for v in summary["vendors"][:30]]
    lines += [f"FAILED expectation {e['type']} {e.get('vendor') or ''} on {e.get('pages')}: "
              f"{e['failures']} pages" for e in summary["failingExpectations"]]
    return lines


@click.command("report")
@click.argument("audit_id")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the pages x vendors matrix as CSV.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True),
              help="Write the HTML report to this file.")
def report_command(audit_id: str, as_json: bool, as_csv: bool, html_file: str | None) -> None:
    """Print an audit's summary (or its report as JSON or CSV; write it as HTML).  Exit 1 when one of
    its expectations failed."""
    from tagcrawl.audit import store
    from tagcrawl.audit.csv import report_csv

    report = store.report_of(_audit(audit_id))
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    elif as_csv:
        click.echo(report_csv(report), nl=False)
    else:
        click.echo("\n".join(summary_lines(report["summary"])))
    write_files(_audit(audit_id), report, {"html": html_file})
    if report["summary"]["expectationsFailed"]:
        raise SystemExit(1)


def write_files(audit, report: dict, paths: dict) -> None:
    """Write ``report`` of ``audit`` to the files of ``paths`` (each None: not written): ``json`` the
    report JSON, ``csv`` the pages x vendors CSV (``audit.csv.report_csv``), ``html`` the page served
    at ``/audits/<id>`` (template ``audit_report.html``, every row and column)."""
    from tagcrawl.audit.csv import report_csv

    if paths.get("json"):
        with open(paths["json"], "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1, ensure_ascii=False, default=str)
    if paths.get("csv"):
        with open(paths["csv"], "w", encoding="utf-8", newline="") as out:
            out.write(report_csv(report))
    if paths.get("html"):
        from flask import render_template

        from tagcrawl.web.views.audit_html import matrix

        columns, rows = matrix(report)
        html = render_template("audit_report.html", audit=audit, report=report, columns=columns,
                               rows=rows, rows_cut=False, columns_cut=False)
        with open(paths["html"], "w", encoding="utf-8") as out:
            out.write(html)


@click.command("diff")
@click.argument("audit_id")
@click.option("--against", "against_id", help="The audit to compare with (default: the previous finished audit "
                                              "with the same configuration).")
def diff_command(audit_id: str, against_id: str | None) -> None:
    """Print what changed between two audits of a site, as JSON.  Exit 1 when there is nothing to compare with."""
    from tagcrawl.audit import store

    audit = _audit(audit_id)
    against = _audit(against_id) if against_id else store.previous_audit(audit)
    if against is None:
        click.echo("No earlier finished audit with the same configuration; pass --against.", err=True)
        raise SystemExit(1)
    click.echo(json.dumps(store.diff_of(audit, against), indent=2, ensure_ascii=False))

