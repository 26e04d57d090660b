"""``flask crawl``: the report without a server, in-process (the CLI runner)
and as scripts run it (a subprocess: exit status, stdout, stderr, --json,
--har, --rules, --consent-action, --quiet, --verbose)."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support.gunicorn_server import free_port

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]


def test_crawl_command_prints_report(runner, browser):
    result = runner.invoke(args=["crawl", "https://shop.example/", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["success"] is True
    assert report["button"]["consent_banner"] is True
    assert "1234567890123456" in {p["account_id"] for p in report["marketingPixels"]}


def test_crawl_command_no_consent(runner, browser):
    result = runner.invoke(args=["crawl", "https://shop.example/", "--no-consent", "--json"])
    report = json.loads(result.output)
    assert "1234567890123456" not in {p["account_id"] for p in report["marketingPixels"]}


def test_crawl_command_rejects_bad_url(runner):
    result = runner.invoke(args=["crawl", "not a url"])
    assert result.exit_code == 2
    assert "url" in result.output


# --- as a script runs it -----------------------------------------------------

@pytest.fixture(scope="module")
def cli_env(fixture_web, tmp_path_factory):
    """Environment of a ``flask --app wsgi`` subprocess: a fresh SQLite database
    (upgraded), Chrome pointed at the fixture web.  Skips without Chrome."""
    from tests.support.chrome import browser_config

    home = tmp_path_factory.mktemp("cli")
    config = browser_config(fixture_web, home)
    env = dict(os.environ, PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{home / 'tagcrawl.db'}",
               TAGCRAWL_CHROME_ARGS=shlex.join(config["CHROME_ARGS"]), TAGCRAWL_ALLOW_PRIVATE_TARGETS="1",
               TAGCRAWL_QUIET_MS="400", TAGCRAWL_POOL_SIZE="1", TAGCRAWL_SCREENSHOT_DIR=str(home / "shots"))
    for name in ("TAGCRAWL_WEBDRIVER_URL", "TAGCRAWL_CHROME_BINARY", "TAGCRAWL_LOG_LEVEL"):
        env.pop(name, None)
    upgrade = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=180)
    assert upgrade.returncode == 0, upgrade.stderr
    return env


def flask_crawl(env: dict, *args: str, **extra_env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "crawl", *args], cwd=ROOT,
                          env=dict(env, **extra_env), capture_output=True, text=True, timeout=180)


def _rule(vendor: str, key: str, value: str) -> dict:
    return {"rule_id": str(uuid.uuid4()), "vendor": vendor, "key": key, "value": value}


def test_success_exits_0_with_json_har_rules_and_reject(cli_env, tmp_path):
    rules = [_rule("Google Analytics 4", "account_id", "G-DEMO12345X"),  # fires before consent
             _rule("Meta", "account_id", "1234567890123456")]             # only after an accept
    (tmp_path / "rules.json").write_text(json.dumps(rules))
    har = tmp_path / "out.har"
    result = flask_crawl(cli_env, "https://shop.example/", "--json", "--consent-action", "reject",
                         "--rules", str(tmp_path / "rules.json"), "--har", str(har))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["success"] is True and report["consent"]["action"] == "reject"
    assert [r["success"] for r in report["validationResults"]] == [True, False]
    entries = json.loads(har.read_text(encoding="utf-8"))["log"]["entries"]
    assert any("google-analytics.com" in e["request"]["url"] for e in entries)
    assert result.stderr == ""  # no library chatter (selenium, urllib3, proxy.py) without --verbose


def test_blocked_page_exits_1_with_a_summary(cli_env):
    result = flask_crawl(cli_env, "https://block-recaptcha.example/", "--verbose")
    assert result.returncode == 1, result.stderr
    first, *rest = result.stdout.splitlines()
    assert first.startswith("https://block-recaptcha.example/: FAILED (page) in ")
    assert "pixels: 0" in rest and any(line.startswith("error: blocked") for line in rest)
    assert "crawl failed (page): blocked" in result.stderr
    assert "INFO:tagcrawl.crawl.service:crawl " in result.stderr  # --verbose: every log line


def test_refused_target_exits_1_quietly(cli_env):
    result = flask_crawl(cli_env, f"http://127.0.0.1:{free_port()}/", "--quiet", TAGCRAWL_ALLOW_PRIVATE_TARGETS="0")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == ["crawl failed (page): refused to crawl: host 127.0.0.1 is a loopback address"]


def test_usage_error_exits_2(cli_env):
    result = flask_crawl(cli_env, "https://shop.example/", "--consent-action", "sometimes")
    assert result.returncode == 2 and "'sometimes' is not one of" in result.stderr


@pytest.mark.parametrize("extra_env", [
    {"TAGCRAWL_CHROME_BINARY": "/nonexistent/chromium"},          # no browser can be started
    {"TAGCRAWL_WEBDRIVER_URL": f"http://127.0.0.1:{free_port()}/wd/hub"},   # the Grid is unreachable
], ids=["chrome-missing", "grid-down"])
def test_service_failure_exits_3(cli_env, extra_env):
    result = flask_crawl(cli_env, "https://shop.example/", "--json", **extra_env)
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    assert report["success"] is False and report["error"]["message"].startswith("browser unavailable")
    assert result.stderr.startswith("crawl failed (service): browser unavailable")
    assert len(result.stderr.splitlines()) == 1  # the first line of the error, not ChromeDriver's stack


def test_the_deadline_before_any_report_is_a_service_failure_and_a_page_timeout_is_not(crawler, private_pool):
    from tagcrawl.crawl.outcome import FailureKind, failure_kind

    config = private_pool(POOL_SIZE=1, CRAWL_TIMEOUT_S=6, QUIET_CAP_MS=60_000)
    hung = crawler("https://deadline.example/", config=config)
    assert "deadline of 6 s exceeded" in hung.response["error"]["message"]
    assert failure_kind(hung.report) is FailureKind.SERVICE
    slow = crawler("https://plain.example/__fixture/hang", config={"PAGE_LOAD_TIMEOUT_S": 3})
    assert "page load timed out" in slow.response["error"]["message"]
    assert failure_kind(slow.report) is FailureKind.PAGE
