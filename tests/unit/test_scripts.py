"""JavaScript lives in .js files, read once by ``engine/scripts.script``: no
Python string of tagcrawl (docstrings aside) holds more than 3 lines of it."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tagcrawl.engine import blocking
from tagcrawl.engine.capture import flush, hooks
from tagcrawl.engine.chrome import driving
from tagcrawl.engine.scripts import script

ROOT = Path(__file__).resolve().parents[2]
#: What makes a string JavaScript rather than prose or SQL.
JS = re.compile(r"=>|\bfunction\b|\bdocument\.|\bwindow\.|\bconst |\blet |\bvar ")
#: Strings still waiting for their move to a .js file (the consent package's own change); empty when it is done.
PENDING: set[str] = set()


def _strings(tree: ast.AST):
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docstrings]


@pytest.mark.slow
def test_no_python_string_holds_more_than_three_lines_of_javascript():
    found = []
    for path in sorted((ROOT / "tagcrawl").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        for node in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if node.value.strip().count("\n") >= 3 and JS.search(node.value) and name not in PENDING:
                found.append(f"{name}:{node.lineno}")
    assert not found, f"JavaScript in Python strings (move it to a .js file, engine/scripts.py): {found}"


def test_each_script_is_read_once_and_is_the_file():
    assert script(flush.__file__, "leave.js") is flush.LEAVE_JS
    assert blocking.PROBE_JS == (Path(blocking.__file__).parent / "blocking_probe.js").read_text(encoding="utf-8")
    assert driving.CENTRE_JS.rstrip().endswith("return [x, y, n === el];")
    assert "__API__" in flush.LEAVE_JS and "__KEY__" not in hooks.PageHooks.new(4000, 10500).script
