"""Tests for tagcrawl.crawl.rules (validation-rules engine)."""
from __future__ import annotations

import types
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tagcrawl.crawl import rules as rules_mod
from tagcrawl.crawl.rules import (CONDITIONS, RULE_TYPES, evaluate_rule,
                                  evaluate_rules, pattern_matches, to_text)
from tagcrawl.engine.vendors.types import Hit

try:
    from tagcrawl.engine.vendors import find_vendor as real_find_vendor
except ImportError:  # catalog not written yet
    real_find_vendor = None

needs_catalog = pytest.mark.skipif(real_find_vendor is None,
                                   reason="tagcrawl.engine.vendors.find_vendor not available yet")


def fb(event="PageView", account="123456", **params):
    return Hit("facebook", "Meta Pixel", account, event, params)


def ga(event="page_view", account="G-ABC123", **params):
    return Hit("google_analytics", "Google Analytics 4", account, event, params)


HITS = [
    fb("PageView", "123456", ev="PageView", id="123456"),
    fb("Purchase", "123456", ev="Purchase", currency="USD", value="9.99"),
    ga("page_view", "G-ABC123", en="page_view", tid="G-ABC123"),
]
COOKIES = [
    {"name": "_fbp", "value": "fb.1.1700000000.123", "domain": ".example.com"},
    {"name": "_ga", "value": "GA1.1.111.222", "domain": ".example.com"},
    {"name": "_ga_ABC123", "value": "GS1.1.333", "domain": ".example.com"},
    {"name": "session", "value": "", "domain": "example.com"},
]
DATALAYER = [
    {"event": "gtm.js", "gtm.start": 1700000000000},
    ["js", "2024-01-01"],
    {"event": "purchase", "ecommerce": {"currency": "USD", "value": 9.99,
                                        "items": [{"item_id": "SKU1", "qty": 1}]}},
    {"event": "view_item", "ecommerce": {"currency": "USD", "value": 5,
                                         "items": [{"item_id": "SKU2"}]}},
    {"consent": True, "user": None, "tags": ["a", "b"], "meta": {"a": 1}},
    "not-a-dict",
]


def rule(vendor="facebook", key="event", value="PageView", condition=None,
         rule_type=None, **extra):
    r = {"rule_id": str(uuid.uuid4()), "vendor": vendor, "key": key, "value": value}
    if condition is not None:
        r["condition"] = condition
    if rule_type is not None:
        r["rule_type"] = rule_type
    r.update(extra)
    return r


def ok(r, hits=HITS, cookies=COOKIES, datalayer=DATALAYER, succeeded=True):
    [result] = evaluate_rules([r], hits, cookies, datalayer, succeeded)
    assert result["rule_id"] == r.get("rule_id")
    assert isinstance(result["success"], bool)
    return result["success"]


# --------------------------------------------------------------- constants

def test_constants():
    assert CONDITIONS == ("OR", "AND")
    assert RULE_TYPES == ("Pixel", "Cookie", "DataLayer", "Consent")


def test_condition_and_rule_type_are_case_sensitive():
    assert ok(rule(condition="OR", rule_type="Pixel"))
    assert not ok(rule(condition="or"))
    assert not ok(rule(rule_type="pixel"))
    assert not ok(rule(rule_type="Banana"))


def test_none_means_defaults():
    assert ok(rule(condition=None, rule_type=None))
    assert ok({"rule_id": "x", "vendor": "facebook", "key": "event",
               "value": "PageView", "condition": None, "rule_type": None})


# ------------------------------------------------------------ glob matcher

@pytest.mark.parametrize("pattern,text,expected", [
    ("abc", "abc", True),
    ("abc", "ABC", False),
    ("abc", "abcd", False),
    ("a*", "a", True),
    ("a*", "abc", True),
    ("*c", "abc", True),
    ("a?c", "abc", True),
    ("a?c", "ac", False),
    ("*", "", True),
    ("", "", True),
    ("", "x", False),
    ("[ab]", "a", False),
    ("[ab]", "[ab]", True),
    ("x[1]*", "x[1]y", True),
    ("a.c", "abc", False),
    ("a|b", "b", True),
    ("a|b", "c", False),
    ("a|", "", True),
    ("*", "multi\nline", True),
    ("*", None, False),
])
def test_pattern_matches(pattern, text, expected):
    assert pattern_matches(pattern, text) is expected


@pytest.mark.parametrize("value,text", [
    ("s", "s"), (9.99, "9.99"), (1, "1"), (True, "true"), (False, "false"),
    (None, "null"), ({"a": [1, "é"]}, '{"a":[1,"é"]}'), ([1, 2], "[1,2]"),
])
def test_to_text(value, text):
    assert to_text(value) == text


# ------------------------------------------------------------------- Pixel

@pytest.mark.parametrize("r,expected", [
    # OR, plain
    (rule(key="event", value="Purchase"), True),
    (rule(key="event", value="AddToCart"), False),
    (rule(key="account_id", value="123456"), True),
    (rule(key="currency", value="USD"), True),
    (rule(key="currency", value="usd"), False),       # case-sensitive
    # OR, glob
    (rule(key="event", value="Pur*"), True),
    (rule(key="event", value="Page?iew"), True),
    (rule(key="account_id", value="999*"), False),
    # OR, alternatives
    (rule(key="event", value="AddToCart|Purchase"), True),
    (rule(key="event", value="AddToCart|Lead"), False),
    # AND, plain
    (rule(key="account_id", value="123456", condition="AND"), True),
    (rule(key="event", value="PageView", condition="AND"), False),
    # AND, glob
    (rule(key="event", value="P*", condition="AND"), True),
    (rule(key="ev", value="Pa*", condition="AND"), False),
    # AND, alternatives
    (rule(key="ev", value="PageView|Purchase", condition="AND"), True),
    (rule(key="ev", value="PageView|Lead", condition="AND"), False),
    # other vendors' hits are not considered
    (rule(vendor="google_analytics", key="en", value="page_view", condition="AND"), True),
    (rule(vendor="google_analytics", key="event", value="PageView"), False),
    (rule(vendor="tiktok", key="event", value="*"), False),
])
def test_pixel(r, expected):
    assert ok(r) is expected


def test_pixel_vendor_matches_key_and_display_name_case_insensitively():
    assert ok(rule(vendor="FACEBOOK", value="PageView"))
    assert ok(rule(vendor="meta pixel", value="PageView"))
    assert ok(rule(vendor="  Facebook ", value="PageView"))
    assert not ok(rule(vendor="nobody", value="*"))


@needs_catalog
def test_pixel_vendor_alias_via_catalog():
    assert ok(rule(vendor="Meta", key="event", value="Purchase"))
    assert ok(rule(vendor="meta", key="account_id", value="123456", condition="AND"))
    assert ok(rule(vendor="Facebook", key="ev", value="PageView|Purchase", condition="AND"))
    assert not ok(rule(vendor="Meta", key="en", value="*"))   # GA4 hits excluded


def test_pixel_uses_catalog_lookup(monkeypatch):
    vendors = {"meta": "facebook", "zuck": "facebook"}
    monkeypatch.setattr(rules_mod, "find_vendor", lambda name: (
        types.SimpleNamespace(key=vendors[name.lower()]) if name.lower() in vendors else None))
    assert ok(rule(vendor="Zuck", key="event", value="Purchase"))
    assert ok(rule(vendor="Meta", key="event", value="Purchase"))
    assert not ok(rule(vendor="unknown", key="event", value="*"))


def test_pixel_catalog_lookup_errors_fall_back(monkeypatch):
    def boom(name):
        raise RuntimeError("catalog broken")
    monkeypatch.setattr(rules_mod, "find_vendor", boom)
    assert ok(rule(vendor="facebook", value="PageView"))


def test_pixel_no_hits():
    for cond in CONDITIONS:
        assert not ok(rule(value="*", condition=cond), hits=[])
        assert not ok(rule(value="*", condition=cond), hits=None)


def test_pixel_missing_field_never_matches():
    assert not ok(rule(key="nope", value="*"))
    assert not ok(rule(key="nope", value=""))
    # AND: a vendor hit lacking the field makes the rule fail
    assert ok(rule(key="currency", value="*"))
    assert not ok(rule(key="currency", value="*", condition="AND"))
    hits = [Hit("facebook", "Meta Pixel", None, None, {})]
    assert not ok(rule(key="account_id", value="*"), hits=hits)
    assert not ok(rule(key="event", value="*"), hits=hits)


def test_pixel_empty_value_matches_only_empty_field():
    hits = [fb(ev="PageView", cd=""), fb(ev="Lead")]
    assert ok(rule(key="cd", value=""), hits=hits)
    assert not ok(rule(key="cd", value="", condition="AND"), hits=hits)
    assert not ok(rule(key="ev", value=""), hits=hits)
    assert ok(rule(key="cd", value="x|"), hits=hits)


def test_pixel_bracket_is_literal():
    hits = [fb(**{"cd[content_ids]": "[1]"})]
    assert ok(rule(key="cd[content_ids]", value="[1]"), hits=hits)
    assert ok(rule(key="cd[content_ids]", value="[*]"), hits=hits)
    assert not ok(rule(key="cd[content_ids]", value="[12]"), hits=hits)


def test_pixel_non_str_params():
    hits = [fb(value=9.99, qty=1, flag=True, obj={"a": 1}, none=None)]
    assert ok(rule(key="value", value="9.99"), hits=hits)
    assert ok(rule(key="qty", value="1"), hits=hits)
    assert ok(rule(key="flag", value="true"), hits=hits)
    assert ok(rule(key="obj", value='{"a":1}'), hits=hits)
    assert not ok(rule(key="none", value="*"), hits=hits)


def test_pixel_odd_hits_do_not_raise():
    hits = [None, 42, "x", Hit("facebook", "Meta Pixel", "1", "PageView", None)]
    assert ok(rule(key="event", value="PageView"), hits=hits)
    assert not ok(rule(key="ev", value="*"), hits=hits)


# ------------------------------------------------------------------ Cookie

def cookie_rule(key, value, condition=None):
    return rule(vendor="anything", key=key, value=value, condition=condition,
                rule_type="Cookie")


@pytest.mark.parametrize("r,expected", [
    # OR, plain / glob / alternatives
    (cookie_rule("_fbp", "fb.1.1700000000.123"), True),
    (cookie_rule("_fbp", "fb.2.1700000000.123"), False),
    (cookie_rule("_ga*", "GS1.*"), True),
    (cookie_rule("_g?", "GA1.1.*"), True),
    (cookie_rule("_ga*", "XX*|GS1.?.333"), True),
    (cookie_rule("_ga*", "XX*|YY*"), False),
    (cookie_rule("_fbp|_fbc", "fb.*"), True),
    (cookie_rule("_FBP", "*"), False),                # names are case-sensitive
    (cookie_rule("missing", "*"), False),
    # AND
    (cookie_rule("_fbp", "fb.1.1700000000.123", "AND"), True),
    (cookie_rule("_ga*", "GA1.*", "AND"), False),
    (cookie_rule("_ga*", "G?1.*", "AND"), True),
    (cookie_rule("_ga*", "GA1.*|GS1.*", "AND"), True),
    (cookie_rule("_ga*", "GA1.*|XX", "AND"), False),
    (cookie_rule("missing", "*", "AND"), False),
    # empty value
    (cookie_rule("session", ""), True),
    (cookie_rule("session", "?*"), False),
    (cookie_rule("[ab]", "*"), False),
])
def test_cookie(r, expected):
    assert ok(r) is expected


def test_cookie_odd_data():
    cookies = [None, {"value": "x"}, {"name": 3, "value": "x"},
               {"name": "a", "value": None}, {"name": "b", "value": 5}, {"name": "[x]"}]
    assert not ok(cookie_rule("a", "*"), cookies=cookies)
    assert ok(cookie_rule("b", "5"), cookies=cookies)
    assert not ok(cookie_rule("[x]", "*"), cookies=cookies)
    assert not ok(cookie_rule("*", "*"), cookies=[])
    assert not ok(cookie_rule("*", "*"), cookies=None)


# --------------------------------------------------------------- DataLayer

def dl_rule(key, value, condition=None):
    return rule(vendor="Google Tag Manager", key=key, value=value,
                condition=condition, rule_type="DataLayer")


@pytest.mark.parametrize("r,expected", [
    # OR, plain / glob / alternatives
    (dl_rule("ecommerce.currency", "USD"), True),
    (dl_rule("ecommerce.currency", "EUR"), False),
    (dl_rule("ecommerce.value", "9.99"), True),
    (dl_rule("ecommerce.value", "5"), True),
    (dl_rule("ecommerce.items.0.item_id", "SKU1"), True),
    (dl_rule("ecommerce.items.1.item_id", "*"), False),
    (dl_rule("ecommerce.items.0.qty", "1"), True),
    (dl_rule("event", "gtm.*"), True),
    (dl_rule("ecommerce.items.0.item_id", "SKU?"), True),
    (dl_rule("event", "add_to_cart|purchase"), True),
    (dl_rule("event", "add_to_cart|refund"), False),
    # AND
    (dl_rule("ecommerce.currency", "USD", "AND"), True),
    (dl_rule("ecommerce.value", "9.99", "AND"), False),
    (dl_rule("ecommerce.items.0.item_id", "SKU*", "AND"), True),
    (dl_rule("event", "gtm.js|purchase|view_item", "AND"), True),
    (dl_rule("event", "gtm.js|purchase", "AND"), False),
    (dl_rule("nope", "*", "AND"), False),
    # type conversion
    (dl_rule("consent", "true"), True),
    (dl_rule("user", "null"), True),
    (dl_rule("tags", '["a","b"]'), True),
    (dl_rule("meta", '{"a":1}'), True),
    (dl_rule("tags.1", "b"), True),
    # non-dict pushes only reachable through an index
    (dl_rule("0", "js"), True),
    (dl_rule("1", "2024-*"), True),
    (dl_rule("missing.path", "*"), False),
    (dl_rule("", "*"), False),
    (dl_rule("event.x", "*"), False),
    (dl_rule("tags.-1", "*"), False),
    (dl_rule("tags.x", "*"), False),
])
def test_datalayer(r, expected):
    assert ok(r) is expected


def test_datalayer_gtag_arguments_and_string_number():
    dl = [["event", "purchase", {"value": 9.99}], {"ecommerce": {"value": "9.99"}}]
    assert ok(dl_rule("1", "purchase"), datalayer=dl)
    assert ok(dl_rule("2.value", "9.99"), datalayer=dl)
    assert ok(dl_rule("ecommerce.value", "9.99", "AND"), datalayer=dl)
    assert not ok(dl_rule("event", "*"), datalayer=dl)   # arrays have no names


def test_datalayer_dotted_keys():
    dl = [{"gtm.start": 1, "gtm": {"x": "nested"}, "a.b": {"c": "long"}, "a": {"b": "short"}}]
    assert ok(dl_rule("gtm.start", "1"), datalayer=dl)
    assert ok(dl_rule("gtm.x", "nested"), datalayer=dl)
    assert ok(dl_rule("a.b.c", "long"), datalayer=dl)
    assert ok(dl_rule("a.b", '{"c":"long"}'), datalayer=dl)    # longest key wins
    assert ok(dl_rule("event", "gtm.js", "AND"), datalayer=[{"event": "gtm.js", "gtm.start": 1}])


def test_datalayer_deeply_nested_and_circular():
    deep = {"a": 1}
    for _ in range(5000):
        deep = {"x": deep}
    circular: dict = {"k": "v"}
    circular["self"] = circular
    dl = [deep, circular, {"x": "plain"}]
    assert not ok(dl_rule("x", "*", "AND"), datalayer=dl)
    assert ok(dl_rule("x", "plain"), datalayer=dl)
    assert ok(dl_rule("self.k", "v"), datalayer=dl)
    assert not ok(dl_rule("self", "*"), datalayer=[circular])


def test_datalayer_empty():
    assert not ok(dl_rule("event", "*"), datalayer=[])
    assert not ok(dl_rule("event", "*", "AND"), datalayer=None)


# ------------------------------------------------------------- evaluate_rules

def test_empty_rules():
    assert evaluate_rules(None, HITS, COOKIES, DATALAYER) == []
    assert evaluate_rules([], HITS, COOKIES, DATALAYER) == []
    assert evaluate_rules(5, HITS, COOKIES, DATALAYER) == []   # type: ignore[arg-type]


def test_order_preserved_and_shape():
    rs = [rule(value="Nope"), cookie_rule("_fbp", "*"), rule(value="PageView"),
          dl_rule("event", "purchase"), rule(value="Nope2")]
    out = evaluate_rules(rs, HITS, COOKIES, DATALAYER)
    assert out == [{"rule_id": r["rule_id"], "success": s}
                   for r, s in zip(rs, [False, True, True, True, False])]


def test_failed_crawl_fails_every_rule():
    rs = [rule(value="PageView"), cookie_rule("_fbp", "*"), dl_rule("event", "*")]
    out = evaluate_rules(rs, HITS, COOKIES, DATALAYER, crawl_succeeded=False)
    assert [o["rule_id"] for o in out] == [r["rule_id"] for r in rs]
    assert all(o["success"] is False for o in out)


def test_malformed_rules_fail_without_raising():
    rs = [None, "x", {"rule_id": "a"}, {"rule_id": "b", "vendor": "facebook",
                                         "key": "event", "value": 3},
          {"rule_id": "c", "vendor": None, "key": "event", "value": "*"}]
    out = evaluate_rules(rs, HITS, COOKIES, DATALAYER)
    assert [o["rule_id"] for o in out] == [None, None, "a", "b", "c"]
    assert not any(o["success"] for o in out)
    assert evaluate_rule(None, [], [], []) is False


# -------------------------------------------------------------- hypothesis

ALPHABET = "abAB01_.*?|[]é \n"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(ALPHABET, max_size=5),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(ALPHABET, max_size=3), children, max_size=3),
    max_leaves=10)
odd = st.none() | st.integers() | st.text(ALPHABET, max_size=5) | json_values
patterns = st.text(ALPHABET, max_size=6)
rules_st = st.lists(st.one_of(
    st.fixed_dictionaries({
        "rule_id": st.uuids().map(str),
        "vendor": st.sampled_from(["facebook", "Meta", "meta pixel", "tiktok", "", "x"]) | odd,
        "key": st.sampled_from(["event", "account_id", "ev", "a", "a.0", "_fbp", "0"])
        | patterns | odd,
        "value": patterns | odd,
        "condition": st.sampled_from([None, "OR", "AND", "and"]) | odd,
        "rule_type": st.sampled_from([None, *RULE_TYPES, "cookie"]) | odd,
    }),
    odd), max_size=5)
hits_st = st.lists(st.one_of(
    st.builds(Hit, vendor_key=st.sampled_from(["facebook", "tiktok"]) | odd,
              vendor_name=st.sampled_from(["Meta Pixel", "TikTok"]) | odd,
              account_id=odd, event=odd,
              params=st.dictionaries(st.text(ALPHABET, max_size=3) | st.integers(), odd,
                                     max_size=3) | odd),
    odd), max_size=4)
cookies_st = st.lists(st.dictionaries(st.sampled_from(["name", "value", "domain"]),
                                      odd) | odd, max_size=4) | odd
datalayer_st = st.lists(json_values, max_size=4) | odd


@pytest.mark.slow
@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_st, hits_st, cookies_st, datalayer_st, st.booleans())
def test_random_inputs_never_raise(rs, hits, cookies, datalayer, succeeded):
    out = evaluate_rules(rs, hits, cookies, datalayer, succeeded)
    assert len(out) == len(rs)
    for r, o in zip(rs, out):
        assert set(o) == {"rule_id", "success"}
        assert isinstance(o["success"], bool)
        assert o["rule_id"] == (r.get("rule_id") if isinstance(r, dict) else None)
        if not succeeded:
            assert o["success"] is False


def test_pixel_rules_check_beacons_and_fall_back_to_library_loads():
    from tagcrawl.crawl.rules import evaluate_rules
    from tagcrawl.engine.vendors.types import Hit

    library = Hit("facebook", "Meta Pixel", "1234567890123456", None, transport="script")
    beacon = Hit("facebook", "Meta Pixel", "1234567890123456", "PageView", transport="image")
    rule = {"rule_id": "r1", "vendor": "Meta", "key": "event", "value": "PageView", "condition": "AND",
            "rule_type": "Pixel"}
    id_rule = dict(rule, rule_id="r2", key="account_id", value="1234567890123456")
    assert evaluate_rules([rule], [library, beacon], [], []) == [{"rule_id": "r1", "success": True}]
    assert evaluate_rules([id_rule], [library], [], []) == [{"rule_id": "r2", "success": True}]
    assert evaluate_rules([rule], [library], [], []) == [{"rule_id": "r1", "success": False}]
