"""No caller input can hold a worker: rule patterns are matched in linear time
(RE2), and pattern length, rule count and dataLayer path depth are capped (422).

The bound on each call is a generous thread join (it fails only on a real
hang; Python's backtracking ``re`` took minutes on these inputs)."""
from __future__ import annotations

import threading
import uuid

import pytest

from tagcrawl.crawl.rules import PATH_SEGMENTS_MAX, PATTERN_MAX, RULES_MAX, evaluate_rules, pattern_matches

HANG_BOUND_S = 60  # a real hang, not a slow machine
EVIL = "*a*a*ab"
LONG_A = "a" * 4000


def finishes(fn, *args):
    """Run ``fn(*args)`` in a thread; return its result, or fail if it hangs."""
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("result", fn(*args)), daemon=True)
    worker.start()
    worker.join(HANG_BOUND_S)
    assert not worker.is_alive(), f"{fn.__name__} still running after {HANG_BOUND_S} s"
    return out["result"]


def rule(rule_type, key, value, condition="OR"):
    return {"rule_id": str(uuid.uuid4()), "vendor": "any", "key": key, "value": value,
            "condition": condition, "rule_type": rule_type}


def test_the_redos_cookie_rule_is_answered():
    cookies = [{"name": "c", "value": LONG_A}]
    result = finishes(evaluate_rules, [rule("Cookie", "c", EVIL)], [], cookies, [])
    assert result[0]["success"] is False


@pytest.mark.parametrize("pattern, text, expected", [
    (EVIL, LONG_A + "b", True),
    (EVIL, LONG_A, False),
    ("*" * PATTERN_MAX, LONG_A, True),
    ("?" * 300 + "*b", LONG_A, False),
    ("|".join(f"*x{i}*" for i in range(60)), LONG_A, False),
])
def test_hostile_patterns_finish(pattern, text, expected):
    assert finishes(pattern_matches, pattern, text) is expected


def test_deep_datalayer_paths_finish():
    deep = {}
    node = deep
    for _ in range(PATH_SEGMENTS_MAX):
        node["a"] = {}
        node = node["a"]
    path = ".".join(["a"] * (PATH_SEGMENTS_MAX - 1))
    pushes = [deep] * 2000
    result = finishes(evaluate_rules, [rule("DataLayer", path, "*", "AND")], [], [], pushes)
    assert result[0]["success"] is True


def test_glob_semantics_kept_under_re2():
    assert pattern_matches("cd[content_ids]", "cd[content_ids]")
    assert pattern_matches("a*|b?", "b\n")
    assert pattern_matches("", "") and not pattern_matches("", "x")
    assert pattern_matches("é*", "été")
    assert not pattern_matches("\ud800*", "x")  # RE2 cannot take a lone surrogate: no match, no error


@pytest.mark.parametrize("mutate, loc_tail", [
    (lambda b: b["validationRules"][0].update(value="*" * (PATTERN_MAX + 1)), [0, "value"]),
    (lambda b: b["validationRules"][0].update(key="k" * (PATTERN_MAX + 1)), [0, "key"]),
    (lambda b: b["validationRules"][0].update(rule_type="DataLayer", key=".".join("a" * (PATH_SEGMENTS_MAX + 1))),
     [0, "key"]),
    (lambda b: b.update(validationRules=b["validationRules"] * (RULES_MAX + 1)), []),
])
def test_caps_answer_422(client, api_key, mutate, loc_tail):
    body = {"url": "https://shop.example/", "session_id": None, "validationRules": [rule("Cookie", "c", "x")]}
    mutate(body)
    response = client.post("/api/v1", json=body, headers={"x-api-key": api_key})
    assert response.status_code == 422
    detail = response.get_json()["detail"]
    assert detail[0]["loc"] == ["body", "validationRules"] + loc_tail
    assert detail[0]["type"] in {"too_long", "too_deep"}


@pytest.mark.browser
@pytest.mark.postgres
def test_the_redos_rule_through_the_crawl_api(app, api_key, browser, fixture_web):
    """A page sets a 4,000-character cookie; the ``*a*a*ab`` rule on it is answered."""
    page = (f"<!doctype html><title>long cookie</title><script>document.cookie = 'c={LONG_A}; path=/';"
            "</script><p>long cookie</p>")

    def route(host, path, query, method, body, headers, web):
        return (200, {"Content-Type": "text/html"}, page) if path == "/long-cookie" else None

    previous, fixture_web.extra_route = fixture_web.extra_route, route
    body = {"url": "https://shop.example/long-cookie", "session_id": None,
            "validationRules": [rule("Cookie", "c", EVIL), rule("Cookie", "c", "a*a")]}
    try:
        response = finishes(lambda: app.test_client().post("/api/v1", json=body, headers={"x-api-key": api_key}))
    finally:
        fixture_web.extra_route = previous
    report = response.get_json()
    assert response.status_code == 200 and report["success"] is True, report
    assert [r["success"] for r in report["validationResults"]] == [False, True], (report["cookiesAfter"], report["message"])
