"""The Procfile's process types run tagcrawl's own commands, and ``TAGCRAWL_BACKGROUND``
says which process runs queued crawls and webhook deliveries (docs/deploy.md)."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tagcrawl import create_app
from tagcrawl.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _procfile() -> dict[str, list[str]]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {name: shlex.split(command) for name, _, command in (line.partition(":") for line in lines if line)}


def test_procfile_declares_web_worker_and_release():
    processes = _procfile()
    assert processes["worker"] == ["flask", "--app", "wsgi", "worker"]
    assert processes["release"] == ["flask", "--app", "wsgi", "db", "upgrade"]
    assert processes["web"][:3] == ["gunicorn", "-c", "python:tagcrawl.runtime.gunicorn_conf"]


def test_worker_command_is_registered():
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})
    result = app.test_cli_runner().invoke(args=["worker", "--help"])
    assert result.exit_code == 0 and "SIGTERM" in result.output


def test_background_setting():
    assert Settings().background == "threads"  # one command (gunicorn) serves everything by default
    assert Settings.from_env({"TAGCRAWL_BACKGROUND": "process"}).background == "process"
    with pytest.raises(ValueError, match="TAGCRAWL_BACKGROUND"):
        Settings.from_env({"TAGCRAWL_BACKGROUND": "thread"})
