"""Tenancy of GET /api/v1/events: a key reads only the customers it is granted.

Grants are given through the CLI (``keys grant``, ``keys create --admin``)."""
from __future__ import annotations

import pytest

from .test_stream_events import API, events  # noqa: F401 - fixture
from tests.support.stream_support import stream_app  # noqa: F401 - fixture

pytestmark = pytest.mark.postgres


def _key(runner, *args) -> str:
    result = runner.invoke(args=["keys", "create", *args])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


def _customers(client, key, **params):
    response = client.get(API, query_string=params, headers={"x-api-key": key})
    return response.status_code, sorted({e["customer"] for e in (response.get_json() or {}).get("events", [])})


def test_a_new_key_reads_nothing(client, runner, events):  # noqa: F811
    key = _key(runner, "nobody")
    assert _customers(client, key) == (200, [])


def test_one_key_cannot_read_another_customers_events(client, runner, events):  # noqa: F811
    acme_key, globex_key = _key(runner, "acme-reader"), _key(runner, "globex-reader")
    assert runner.invoke(args=["keys", "grant", "acme-reader", "--customer", "acme"]).exit_code == 0
    assert runner.invoke(args=["keys", "grant", "globex-reader", "--customer", "globex"]).exit_code == 0
    assert _customers(client, acme_key) == (200, ["acme"])
    assert _customers(client, globex_key) == (200, ["globex"])
    # Asking for the other customer by name is refused, as is an unknown name (same answer).
    assert _customers(client, acme_key, customer="globex")[0] == 403
    assert _customers(client, acme_key, customer="initech")[0] == 403
    assert _customers(client, acme_key, customer="acme") == (200, ["acme"])
    # Filters and cursors cannot widen the grant.
    assert _customers(client, acme_key, domain="globex.example.net") == (200, [])


def test_admin_keys_read_every_customer(client, runner, events):  # noqa: F811
    admin = _key(runner, "admin", "--admin")
    assert _customers(client, admin) == (200, ["acme", "globex"])
    plain = _key(runner, "later-admin")
    assert runner.invoke(args=["keys", "grant", "later-admin", "--all-customers"]).exit_code == 0
    assert _customers(client, plain) == (200, ["acme", "globex"])
    assert runner.invoke(args=["keys", "ungrant", "later-admin", "--all-customers"]).exit_code == 0
    assert _customers(client, plain) == (200, [])


def test_grant_errors_are_clear(client, runner, events):  # noqa: F811
    key = _key(runner, "k")
    # A customer not seen yet is created by the grant (README order: grant, then the customer's first token).
    result = runner.invoke(args=["keys", "grant", "k", "--customer", "initech"])
    assert result.exit_code == 0 and result.output == "k: initech (new customer)\n"
    assert _customers(client, key, customer="initech") == (200, [])
    assert runner.invoke(args=["keys", "grant", "k", "--customer", "initech"]).output == "k: initech (already granted)\n"
    assert runner.invoke(args=["keys", "grant", "k", "--customer", "  "]).exit_code != 0
    result = runner.invoke(args=["keys", "grant", "missing", "--customer", "acme"])
    assert result.exit_code != 0 and "no API key named 'missing'" in result.output
    assert runner.invoke(args=["keys", "grant", "k"]).exit_code != 0
