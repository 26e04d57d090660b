"""The browser tag without a browser: rendered once per process, its vendor
table is the catalog, and the minifier keeps what it must.  Served:
tests/db/test_tag_js_db.py; end to end in Chrome: tests/browser/test_tag_js.py."""
from __future__ import annotations

from tagcrawl.stream.tag.build import compress, expand, library_load, minify, render, rendered, vendor_table
from tagcrawl.engine.vendors import CATALOG


def test_tag_is_rendered_once_per_process():
    assert rendered() is rendered()
    assert render().body == rendered().body  # deterministic: same catalog, same script


def _decode(table: str) -> list[tuple]:
    """The tag's vendor table back to (name, host, path, require, events, embedded, split, sync) rows."""
    rows = []
    for line in table.split("\n"):
        name, *patterns = line.split("\t")
        host = None
        for pattern in patterns:
            fields = (pattern.split("\x1f") + [""] * 7)[:7]
            if fields[0] != "=":
                plain = fields[0] and all(c.isalnum() or c in ".|-" for c in fields[0])
                host = (r"(?:^|\.)(?:" + fields[0].replace(".", r"\.") + ")$") if plain else (fields[0] or None)
            require, events, embedded = (tuple(f.split("\x1e")) if f else () for f in fields[2:5])
            rows.append((name, host, fields[1] or None, tuple(zip(require[::2], require[1::2])), events, embedded,
                         fields[5] or None, fields[6] == "1"))
    return rows


def test_vendor_table_is_the_catalog():
    """The script carries every pattern of the catalog but library loads and configuration fetches
    (``Pattern.config``: no events there), losslessly (no second list); an ID sync (``kind = "sync"``)
    is marked, so that the request it takes gives no event."""
    expected = [(v.name, p.host, p.path, p.require, p.events, p.embedded, p.split, p.kind == "sync")
                for v in CATALOG for p in v.patterns if not library_load(p.path) and not p.config]
    assert any(row[-1] for row in expected)
    table = vendor_table()
    assert _decode(table) == expected
    skipped = [p.path for v in CATALOG for p in v.patterns if library_load(p.path)]
    assert skipped and all(path.endswith((r"\.js$", r"\.js)$")) for path in skipped)
    assert not library_load(r"^/collect$|/clarity\.js$")  # an alternative that is not a script
    packed = compress(table)
    assert expand(packed) == table and len(packed) < 0.8 * len(table)
    assert packed.encode() in rendered().body


def test_minify_renames_locals_and_keeps_the_rest():
    source = """(function (w) {
  // a comment
  let $count = 0, a = { no: 1, a };
  /* block */
  const $add = ($n) => $count += $n / 2;
  w.$count = $add(4) + +1;
  return /a\\/b[/]/.test("x // y") ? `$t` : 'z';
})"""
    out = minify(source)
    assert "comment" not in out and "block" not in out
    assert '"x // y"' in out and "/a\\/b[/]/" in out and "`$t`" in out and "'z'" in out
    assert "w.$count" in out and "{no:1,a}" in out  # properties keep their names
    assert "$add" not in out and "let $count" not in out and "+ +1" in out
    assert "let a=" not in out  # a short name never shadows another identifier
