"""flask CLI command ``crawl``: crawl one page now, without a server."""
from __future__ import annotations

import json

import click

from tagcrawl.core.schemas import CrawlRequestSchema
from tagcrawl.core.settings import current_settings


@click.command("crawl")
@click.argument("url")
@click.option("--no-consent", is_flag=True, help="Do not click the consent banner.")
@click.option("--screenshots", is_flag=True, help="Take screenshots before and after consent.")
@click.option("--country", default=None, help="ISO 3166-1 alpha-2 country code.")
@click.option("--session-id", default=None, help="uuid4 to echo as sessionId.")
def crawl_command(url: str, no_consent: bool, screenshots: bool, country: str | None, session_id: str | None) -> None:
    """Crawl URL now and print the CrawlResponse JSON (no server needed)."""
    from tagcrawl.crawl.records import store_crawl
    from tagcrawl.crawl.service import run_crawl
    from tagcrawl.core.errors import flatten_errors

    schema = CrawlRequestSchema()
    body = {"url": url, "session_id": session_id,
            "options": {"byPassConsent": not no_consent, "screenShots": screenshots, "country": country}}
    errors = schema.validate(body)
    if errors:
        for problem in flatten_errors(errors):
            click.echo(f"{'.'.join(map(str, problem['loc'][1:]))}: {problem['msg']}", err=True)
        raise SystemExit(2)
    request_json = schema.dump(schema.load(body))
    outcome = run_crawl(current_settings(), request_json)
    store_crawl(request_json, outcome.response, None)
    click.echo(json.dumps(outcome.response, indent=2))
