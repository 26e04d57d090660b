"""Tenancy of the events API: which customers' events an API key may read.

A new key reads nothing.  ``grant(key, customer)`` adds one customer
(created when it does not exist yet: a key may be granted before the
customer's first token, as the README's steps do);
``set_all_customers(key, True)`` makes it an admin key that reads every
customer (and events stored without a customer).  The CLI wraps these:
``flask --app wsgi keys grant NAME --customer C`` / ``--all-customers``,
``keys create NAME --admin``, ``keys ungrant NAME --customer C``.
"""
from __future__ import annotations

from typing import NamedTuple

from tagcrawl.core.extensions import db
from tagcrawl.core.models import ApiKey, ApiKeyGrant, Customer, by_name


class GrantError(LookupError):
    """An unknown key or customer name, or an unusable customer name (message names it)."""


class Granted(NamedTuple):
    """What ``grant`` changed: ``new_grant`` (False: the key had it already) and
    ``new_customer`` (the customer was created by this grant)."""

    new_grant: bool
    new_customer: bool


#: ``customers.name`` is a VARCHAR(120).
CUSTOMER_NAME_MAX = 120


def _key(name: str) -> ApiKey:
    return by_name(ApiKey, name, GrantError, "API key")


def _customer(name: str) -> Customer:
    return by_name(Customer, name, GrantError, "customer")


def grant(key_name: str, customer_name: str) -> Granted:
    """Let key ``key_name`` read customer ``customer_name``'s events; commits.
    The customer is created when there is none of that name (its events
    arrive later, with its tokens).

    Returns:
        ``Granted(new_grant, new_customer)``.
    Raises:
        GrantError: no such key; an empty customer name or one over 120
            characters (the column's size).
    """
    key = _key(key_name)
    name = (customer_name or "").strip()
    if not name or len(name) > CUSTOMER_NAME_MAX:
        raise GrantError(f"a customer name has 1 to {CUSTOMER_NAME_MAX} characters")
    customer = by_name(Customer, name)
    created = customer is None
    if created:
        customer = Customer(name=name)
        db.session.add(customer)
        db.session.flush()
    elif db.session.get(ApiKeyGrant, (key.id, customer.id)) is not None:
        return Granted(False, False)
    db.session.add(ApiKeyGrant(api_key_id=key.id, customer_id=customer.id))
    db.session.commit()
    return Granted(True, created)


def ungrant(key_name: str, customer_name: str) -> bool:
    """Withdraw a grant; commits.  Returns False when there was none.  Raises GrantError."""
    key, customer = _key(key_name), _customer(customer_name)
    row = db.session.get(ApiKeyGrant, (key.id, customer.id))
    if row is None:
        return False
    db.session.delete(row)
    db.session.commit()
    return True


def set_all_customers(key_name: str, value: bool) -> None:
    """Turn the all-customers (admin) flag of a key on or off; commits.  Raises GrantError."""
    _key(key_name).all_customers = bool(value)
    db.session.commit()


def granted_names(key: ApiKey) -> list[str]:
    """Names of the customers granted to ``key``, sorted (the flag aside)."""
    query = (db.select(Customer.name).join(ApiKeyGrant, ApiKeyGrant.customer_id == Customer.id)
             .where(ApiKeyGrant.api_key_id == key.id).order_by(Customer.name))
    return list(db.session.scalars(query))


def readable_customers(key: ApiKey):
    """What ``key`` may read: None for every customer (admin key), else a
    SELECT of the granted customer ids (for ``customer_id IN (...)``)."""
    if key.all_customers:
        return None
    return db.select(ApiKeyGrant.customer_id).where(ApiKeyGrant.api_key_id == key.id)
