"""No caller input can hold a worker: rule patterns are matched in linear time
(RE2), and pattern length, rule count and dataLayer path depth are capped (422).

The bound on each call is a generous thread join (it fails only on a real
hang; Python's backtracking ``re`` took minutes on these inputs).  The caps through
the API: tests/db/test_redos_db.py; a crawl in Chrome: tests/browser/test_redos_browser.py."""
from __future__ import annotations

import threading
import uuid

import pytest

from tagcrawl.crawl.rules import PATH_SEGMENTS_MAX, PATTERN_MAX, evaluate_rules, pattern_matches

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


@pytest.mark.slow
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
