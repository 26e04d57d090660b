"""The crawl CLI prints the CrawlResponse JSON without a server."""
from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_crawl_command_prints_report(runner, browser):
    result = runner.invoke(args=["crawl", "https://shop.example/"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["success"] is True
    assert report["button"]["consent_banner"] is True
    assert "1234567890123456" in {p["account_id"] for p in report["marketingPixels"]}


def test_crawl_command_no_consent(runner, browser):
    result = runner.invoke(args=["crawl", "https://shop.example/", "--no-consent"])
    report = json.loads(result.output)
    assert "1234567890123456" not in {p["account_id"] for p in report["marketingPixels"]}


def test_crawl_command_rejects_bad_url(runner):
    result = runner.invoke(args=["crawl", "not a url"])
    assert result.exit_code == 2
    assert "url" in result.output
