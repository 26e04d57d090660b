"""flask CLI command ``crawl``: crawl one page now, without a server, for a
person (a short summary) or a script (``--json``, ``--har``, the exit status)."""
from __future__ import annotations

import json
import os

import click
from flask.cli import with_appcontext

from tagcrawl.core.schemas import CrawlRequestSchema
from tagcrawl.core.settings import current_settings

#: Exit statuses (docs/cli.md): success, page failure, usage, service failure.
EXIT_OK, EXIT_PAGE, EXIT_USAGE, EXIT_SERVICE = 0, 1, 2, 3


def _writable(_ctx, param, value: str | None) -> str | None:
    """A path the HAR can be written to (checked before the crawl: a bad one is a usage error)."""
    if value is not None:
        target = value if os.path.exists(value) else (os.path.dirname(os.path.abspath(value)))
        if os.path.isdir(value) or not os.access(target, os.W_OK):
            raise click.BadParameter(f"cannot write {value!r}", param=param)
    return value


@click.command("crawl")
@click.argument("url")
@click.option("--consent-action", type=click.Choice(["accept", "reject", "none"]), default=None,
              help="What to do with a consent banner: accept (default), reject (the refuse button) or none "
                   "(report it, click nothing).")
@click.option("--no-consent", is_flag=True, help="Do not click the consent banner (same as --consent-action none).")
@click.option("--rules", "rules_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="JSON file holding a list of validation rules (docs/rules.md).")
@click.option("--har", "har_file", default=None, callback=_writable, metavar="FILE",
              help="Write the crawl's traffic as HAR 1.2 to FILE (as GET /api/v1/crawls/<id>/har gives it).")
@click.option("--screenshots", is_flag=True, help="Take screenshots before and after consent.")
@click.option("--country", default=None, help="ISO 3166-1 alpha-2 country code.")
@click.option("--session-id", default=None, help="uuid4 to echo as sessionId.")
@click.option("--json", "as_json", is_flag=True, help="Print the CrawlResponse JSON instead of a summary.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on stdout (except the JSON with --json).")
@click.option("--verbose", "-v", is_flag=True, help="Log the libraries' messages too (stderr).")
@with_appcontext
def crawl_command(url, consent_action, no_consent, rules_file, har_file, screenshots, country, session_id,
                  as_json, quiet, verbose) -> None:
    """Crawl URL now (no server needed) and print a summary: the outcome,
    pixels (vendor, account id, consent phase), consent, cookies, errors.
    The crawl is stored like an API crawl.  stderr carries tagcrawl's own
    messages only, unless --verbose.

    \b
    Exit status:
      0  success
      1  the page failed: blocked, timed out, refused target, DNS or
         network error (the report says which)
      2  usage: a bad option, URL or rules file
      3  the service failed: no browser could be started or reached,
         the deadline passed before any report, no database schema
    """
    from tagcrawl.cli.firstrun import database_errors, require_schema
    from tagcrawl.cli.logs import command_logging
    from tagcrawl.cli.summary import first_line, summary_lines
    from tagcrawl.crawl.outcome import FailureKind, failure_kind
    from tagcrawl.crawl.records import store_crawl
    from tagcrawl.crawl.service import run_crawl
    from tagcrawl.engine.chrome.pool import get_pool

    settings = current_settings()
    if consent_action and no_consent and consent_action != "none":
        raise click.UsageError("--no-consent contradicts --consent-action " + consent_action)
    options = {"byPassConsent": not no_consent, "screenShots": screenshots, "country": country}
    if consent_action:
        options["consentAction"] = consent_action
    body = {"url": url, "session_id": session_id, "options": options,
            "validationRules": _read_rules(rules_file, settings.crawl_max_bytes) if rules_file else None}
    request_json = _validated(body)
    require_schema(exit_code=EXIT_SERVICE)  # before the crawl, not after its seconds
    with command_logging(verbose, settings.log_level):
        try:
            outcome = run_crawl(settings, request_json)
        finally:  # now, while the libraries' shutdown chatter is still filtered (else: atexit)
            get_pool(settings).shutdown()
        with database_errors(exit_code=EXIT_SERVICE):
            row = store_crawl(request_json, outcome.response, None, outcome.requests, settings)
            if har_file:
                _write_har(har_file, row, request_json["url"], settings)
    kind = failure_kind(outcome.report)
    response = outcome.response
    if as_json:
        click.echo(json.dumps(response, indent=2))
    elif not quiet:
        click.echo("\n".join(summary_lines(response, kind and kind.value)))
    if kind is not None:
        click.echo(f"crawl failed ({kind.value}): {first_line((response.get('error') or {}).get('message'))}",
                   err=True)
    click.get_current_context().exit(
        EXIT_OK if kind is None else EXIT_SERVICE if kind is FailureKind.SERVICE else EXIT_PAGE)


def _read_rules(path: str, max_bytes: int) -> list:
    """The JSON list of validation rules in ``path``, read up to ``max_bytes``
    (``CRAWL_MAX_BYTES``, the API's request cap).  Raises click.BadParameter (exit 2)."""
    with open(path, "rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise click.BadParameter(f"larger than {max_bytes} bytes", param_hint="--rules")
    try:
        rules = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="--rules") from None
    if not isinstance(rules, list):
        raise click.BadParameter("not a JSON list of rules", param_hint="--rules")
    return rules


def _validated(body: dict) -> dict:
    """``body`` loaded and dumped by ``CrawlRequestSchema``, as the API does.
    Raises click.UsageError (exit 2) naming each bad field."""
    from tagcrawl.core.errors import flatten_errors

    schema = CrawlRequestSchema()
    errors = schema.validate(body)
    if errors:
        problems = ("{}: {}".format(".".join(map(str, p["loc"][1:])), p["msg"]) for p in flatten_errors(errors))
        raise click.UsageError("; ".join(problems))
    return schema.dump(schema.load(body))


def _write_har(path: str, row, url: str, settings) -> None:
    """Write the HAR stored with the crawl ``row`` (``records.record_har``:
    the text GET /api/v1/crawls/<id>/har answers, secrets redacted) to
    ``path``; a crawl that captured nothing gets a HAR with no entries."""
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import CrawlHar
    from tagcrawl.engine.har import build_har

    stored = db.session.get(CrawlHar, row.id)
    text = stored.har if stored is not None else json.dumps(
        build_har([], url, body_cap=settings.har_body_max_bytes, total_cap=settings.har_max_bytes))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
