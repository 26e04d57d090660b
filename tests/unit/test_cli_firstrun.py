"""The CLI as a new user meets it, on a fresh SQLite database (no Chrome, no
PostgreSQL): commands before ``db upgrade`` say what to run, an unusable
``DATABASE_URL`` is one line, the README's steps work in README order, list
commands have a header and ``--json``, ``version``, ``crawl``'s usage errors
(exit 2, before any browser), and docs/cli.md is the generated text."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tagcrawl import create_app
from tagcrawl.core.version import __version__

ROOT = Path(__file__).resolve().parents[2]
HINT = "run: flask --app wsgi db upgrade"


@pytest.fixture
def fresh(tmp_path):
    """The CLI runner of an app on a new SQLite file (no tables yet)."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'tagcrawl.db'}", "TESTING": True})
    return app.test_cli_runner()


@pytest.mark.parametrize("args", [
    ["keys", "list"], ["keys", "create", "my-tool"], ["keys", "grant", "my-tool", "--customer", "acme"],
    ["keys", "revoke", "my-tool"], ["tokens", "issue", "--customer", "acme", "--domain", "shop.example.com"],
    ["tokens", "list", "--json"], ["domains", "list"], ["webhooks", "list"], ["pixels", "har-secrets", "k", "--allow"],
    ["events", "export", "--since", "24h"],
])
@pytest.mark.slow
def test_a_command_before_db_upgrade_says_what_to_run(fresh, args):
    result = fresh.invoke(args=args)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: the database has no tagcrawl schema") and HINT in result.output
    assert "Traceback" not in result.output and "SELECT" not in result.output


def test_crawl_before_db_upgrade_is_a_service_failure_before_any_browser(fresh):
    result = fresh.invoke(args=["crawl", "https://shop.example/"])
    assert result.exit_code == 3 and HINT in result.output


def _flask(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT), **env))


@pytest.mark.slow
def test_an_unsupported_database_url_is_one_line(tmp_path):
    result = _flask("keys", "list", DATABASE_URL="mysql://app:s3cret-pw@db.example/tagcrawl")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip() == result.stderr.strip().splitlines()[0]  # one line, no traceback
    assert result.stderr.startswith("Error: DATABASE_URL: unsupported database 'mysql'; tagcrawl runs on PostgreSQL")
    assert "s3cret" not in result.stderr


@pytest.mark.parametrize("environ, says", [
    ({"DATABASE_URL": "postgresql+asyncpg://u:pw@h/db"}, "DATABASE_URL: unsupported database 'postgresql+asyncpg'"),
    ({"DATABASE_URL": "not a url"}, "DATABASE_URL is not a database URL"),
    ({"TAGCRAWL_QUIET_MS": "soon"}, "TAGCRAWL_QUIET_MS='soon' is not a valid int"),
])
def test_settings_the_app_cannot_use_are_config_errors(environ, says, monkeypatch):
    from tagcrawl.core.settings import ConfigError

    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=re.escape(says)):
        create_app()


def _readme_steps() -> list[str]:
    """The ``flask --app wsgi ...`` commands of README.md, in README order
    (those with a placeholder such as FILE.har or NAME left out, and the
    long-running ones: ``worker`` and ``run``, which serve until stopped, and
    ``audit``, which crawls a whole site: tests/browser/test_audit_queue.py runs it)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    steps = [m.strip() for m in re.findall(r"flask --app wsgi ([a-z][^`#\n]*)", text)]
    return [s for s in steps if not any(re.fullmatch(r"[A-Z][A-Z_.a-z]*", w) and w != w.lower()
                                        for w in s.split()) and s.split()[0] not in ("worker", "run", "audit")]


@pytest.mark.slow
def test_readme_steps_work_in_readme_order(fresh):
    steps = _readme_steps()
    assert steps[0] == "db upgrade"
    assert {"keys create my-tool", "keys grant my-tool --customer acme"} <= set(steps)
    assert any(s.startswith("tokens issue --customer acme") for s in steps)
    for step in steps:
        result = fresh.invoke(args=step.split())
        assert result.exit_code == 0, (step, result.output)
    keys = json.loads(fresh.invoke(args=["keys", "list", "--json"]).output)
    assert [(k["name"], k["state"], k["customers"], k["all_customers"]) for k in keys] == [
        ("my-tool", "active", ["acme"], False)]
    listing = fresh.invoke(args=["keys", "list"]).output.splitlines()
    assert listing[0] == "NAME\tPREFIX\tSTATE\tALL_CUSTOMERS\tCUSTOMERS\tWEBHOOK"
    assert listing[1].split("\t")[2:] == ["active", "no", "acme", "-"]
    assert fresh.invoke(args=["webhooks", "list", "--json"]).output.strip() == "[]"


def test_version_is_tagcrawls(fresh):
    result = fresh.invoke(args=["version"])
    assert result.exit_code == 0 and result.output == f"tagcrawl {__version__}\n"


def _rules(tmp_path, content) -> str:
    path = tmp_path / "rules.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("extra, says", [
    (["--consent-action", "maybe"], "'maybe' is not one of"),
    (["--consent-action", "accept", "--no-consent"], "--no-consent contradicts"),
    (["--rules", "{rules}"], "not JSON"),
    (["--har", "{dir}"], "cannot write"),
    (["--country", "Germany"], "country"),
])
@pytest.mark.slow
def test_crawl_usage_errors_exit_2(fresh, tmp_path, extra, says):
    extra = [a.format(rules=_rules(tmp_path, "[{"), dir=tmp_path) for a in extra]
    result = fresh.invoke(args=["crawl", "https://shop.example/", *extra])
    assert result.exit_code == 2, result.output
    assert says in result.output


@pytest.mark.parametrize("rules, says", [
    ({"rule_id": "x"}, "not a JSON list"),
    ([{"vendor": "Meta", "key": "k", "value": "v"}], "validationRules.0.rule_id"),
])
@pytest.mark.slow
def test_crawl_rules_file_is_checked_like_the_api_body(fresh, tmp_path, rules, says):
    result = fresh.invoke(args=["crawl", "https://shop.example/", "--rules", _rules(tmp_path, rules)])
    assert result.exit_code == 2 and says in result.output


def test_cli_doc_is_current():
    from tools.cli_doc import DOC_PATH, markdown

    text = markdown(create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}))
    for command in ("keys grant", "keys ungrant", "--admin", "pixels from-har", "openapi print", "limiter limits",
                    "crawl", "version", "db upgrade", "tokens issue", "domains add", "events export", "webhooks list"):
        assert f"{command}" in text
    assert DOC_PATH.read_text(encoding="utf-8") == text, "run: python -m tools.cli_doc --write"
