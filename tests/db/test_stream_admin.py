"""Customers, whitelisted domains and tokens: services and the flask CLI."""
from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest

from tagcrawl.core.extensions import db
from tagcrawl.core.models import Customer, IngestToken, utcnow
from tagcrawl.stream.origins import host_allowed, normalize_pattern, request_origin
from tagcrawl.stream.tenants import issue_token, list_tokens

from tests.support.stream_support import minimal, post_event

pytestmark = pytest.mark.postgres


def test_tokens_issue_prints_the_token_last(app, runner):
    result = runner.invoke(args=["tokens", "issue", "--customer", "acme", "--domain", "shop.example.com",
                                 "--domain", "*.acme.test", "--ttl-days", "30"])
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    assert uuid.UUID(token).version == 4
    with app.app_context():
        row = db.session.scalar(db.select(IngestToken).filter_by(token=token))
        customer = db.session.get(Customer, row.customer_id)
        assert customer.name == "acme"
        assert sorted(d.pattern for d in customer.domains) == ["*.acme.test", "shop.example.com"]
        assert timedelta(days=29, hours=23) < row.expires_at - utcnow() <= timedelta(days=30)
    assert post_event(app.test_client(), minimal(token)).status_code == 204


def test_tokens_issue_for_an_existing_customer_and_without_expiry(app, runner):
    runner.invoke(args=["tokens", "issue", "--customer", "acme", "--domain", "shop.example.com"])
    result = runner.invoke(args=["tokens", "issue", "--customer", "acme", "--ttl-days", "0"])
    assert result.exit_code == 0, result.output
    assert "expires never" in result.output
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Customer.id))) == 1
        assert db.session.scalar(db.select(db.func.count(IngestToken.id))) == 2


@pytest.mark.parametrize("args, message", [
    (["--customer", "newco"], "no whitelisted domain"),
    (["--customer", "newco", "--domain", "*.co.uk"], "public suffix"),
    (["--customer", "newco", "--domain", "not a host"], "not a host name"),
    (["--customer", "newco", "--domain", "a.example", "--ttl-days", "-1"], "-1"),
])
def test_tokens_issue_refusals(app, runner, args, message):
    result = runner.invoke(args=["tokens", "issue", *args])
    assert result.exit_code != 0
    assert message in result.output
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(IngestToken.id))) == 0


def test_tokens_revoke_and_list(app, runner):
    with app.app_context():
        active = issue_token("acme", ["shop.example.com"]).token
        revoked = issue_token("acme").token
        expired = issue_token("acme", ttl_days=1, now=utcnow() - timedelta(days=2)).token
    result = runner.invoke(args=["tokens", "revoke", revoked])
    assert result.exit_code == 0 and revoked in result.output
    header, *lines = runner.invoke(args=["tokens", "list"]).output.strip().splitlines()
    assert header == "TOKEN\tCUSTOMER\tEXPIRES_AT\tSTATE"
    states = {line.split("\t")[0]: line.split("\t")[-1] for line in lines}
    assert states == {active: "active", revoked: "revoked", expired: "expired"}
    as_json = json.loads(runner.invoke(args=["tokens", "list", "--json"]).output)
    assert {item["token"]: item["state"] for item in as_json} == states
    assert runner.invoke(args=["tokens", "list", "--customer", "other"]).output == header + "\n"
    assert runner.invoke(args=["tokens", "list", "--customer", "other", "--json"]).output.strip() == "[]"
    unknown = runner.invoke(args=["tokens", "revoke", str(uuid.uuid4())])
    assert unknown.exit_code != 0 and "no such token" in unknown.output
    assert runner.invoke(args=["tokens", "revoke", "nope"]).exit_code != 0


def test_domains_add_remove_list(app, runner):
    result = runner.invoke(args=["domains", "add", "--customer", "acme", "Shop.Example.com.", "*.acme.test"])
    assert result.exit_code == 0, result.output
    listing = runner.invoke(args=["domains", "list"]).output.splitlines()
    assert listing == ["CUSTOMER\tPATTERN", "acme\t*.acme.test", "acme\tshop.example.com"]
    assert json.loads(runner.invoke(args=["domains", "list", "--json"]).output) == [
        {"customer": "acme", "pattern": "*.acme.test"}, {"customer": "acme", "pattern": "shop.example.com"}]
    assert runner.invoke(args=["domains", "add", "--customer", "acme", "shop.example.com"]).exit_code == 0
    result = runner.invoke(args=["domains", "remove", "--customer", "acme", "*.acme.test"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(args=["domains", "list", "--customer", "acme"]).output.splitlines() == [
        "CUSTOMER\tPATTERN", "acme\tshop.example.com"]
    missing = runner.invoke(args=["domains", "remove", "--customer", "acme", "*.acme.test"])
    assert missing.exit_code != 0 and "not whitelisted" in missing.output
    assert runner.invoke(args=["domains", "add", "--customer", "acme", "*.com"]).exit_code != 0


def test_domain_removal_takes_effect_in_this_process(app, client):
    with app.app_context():
        token = issue_token("acme", ["shop.example.com", "b.example.com"]).token
    assert post_event(client, minimal(token)).status_code == 204
    from tagcrawl.stream.tenants import remove_domain

    with app.app_context():
        remove_domain("acme", "shop.example.com")
    assert post_event(client, minimal(token)).status_code == 403


def test_list_tokens_service(app):
    with app.app_context():
        issue_token("acme", ["shop.example.com"])
        [item] = list_tokens("acme")
    assert item["customer"] == "acme" and item["state"] == "active"


@pytest.mark.parametrize("pattern, normalized", [
    ("example.com", "example.com"),
    ("*.Example.COM", "*.example.com"),
    ("https://shop.example.com/path", "shop.example.com"),
    ("bücher.example", "xn--bcher-kva.example"),
    ("localhost", "localhost"),
])
def test_normalize_pattern(pattern, normalized):
    assert normalize_pattern(pattern) == normalized


@pytest.mark.parametrize("pattern", ["*", "*.com", "*.co.uk", "", "exa mple.com", "-bad.com", "a..b"])
def test_bad_patterns(pattern):
    with pytest.raises(ValueError):
        normalize_pattern(pattern)


@pytest.mark.parametrize("host, allowed", [
    ("example.com", True), ("www.example.com", False), ("a.sub.example.com", True), ("sub.example.com", False),
    ("notexample.com", False), ("example.com.evil.org", False), ("", False),
])
def test_host_allowed(host, allowed):
    assert host_allowed(host, ("example.com", "*.sub.example.com")) is allowed


@pytest.mark.parametrize("origin, referer, expected", [
    ("https://Shop.Example.com", None, ("https://Shop.Example.com", "shop.example.com")),
    (None, "https://shop.example.com:8443/a?b#c", ("https://shop.example.com:8443", "shop.example.com")),
    ("null", "https://x.example.com/", ("https://x.example.com", "x.example.com")),
    ("file://", None, None),
    (None, "not a url", None),
    ("https://[::1", None, None),
    (None, None, None),
])
def test_request_origin(origin, referer, expected):
    assert request_origin(origin, referer) == expected
