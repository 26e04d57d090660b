"""Generate the parts of ``docs/consent.md`` that the consent rule files state:
the rule syntax (from the schemas' field descriptions), the supported CMPs
(from ``tagcrawl/engine/consent/cmps/*.json``) and the languages (from
``words/*.json``).  Each part sits between ``<!-- BEGIN generated: NAME ... -->``
and ``<!-- END generated: NAME -->``; the prose around them is kept.

A tool of the repository, not of the package.  Run from the repository root::

    python -m tools.cmp_table            # print the document to stdout
    python -m tools.cmp_table --write    # (re)write docs/consent.md
    python -m tools.cmp_table --check    # exit 1 when docs/consent.md is stale
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from marshmallow import fields

from tagcrawl.engine.consent.rules import CMPS, WORDS
from tagcrawl.engine.consent.schema import CmpSchema, DetectSchema, FixtureSchema, FramesSchema, WordsSchema

#: docs/consent.md of this repository (tools/ sits at its root).
DOC_PATH = Path(__file__).resolve().parents[1] / "docs" / "consent.md"
BLOCK = re.compile(r"(<!-- BEGIN generated: (\w+) .*?-->\n)(.*?)(<!-- END generated: \2 -->)", re.DOTALL)


def _cell(text: str) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ")


def _codes(values, empty: str = "—") -> str:
    return ", ".join(f"`{_cell(v)}`" for v in values) or empty


def _type(field: fields.Field) -> str:
    if isinstance(field, fields.List):
        return "list of strings"
    if isinstance(field, fields.Nested):
        return "object"
    if isinstance(field, fields.Dict):
        return "object (string → string)"
    return "integer" if isinstance(field, fields.Integer) else "string"


def _keys(schema, title: str) -> list[str]:
    """A table of a schema's keys: key, type, required, what it means."""
    lines = [f"**{title}**", "", "| key | type | required | meaning |", "|---|---|---|---|"]
    for name, field in schema().fields.items():
        lines.append(f"| `{name}` | {_type(field)} | {'yes' if field.required else 'no'} | "
                     f"{_cell(field.metadata.get('description', ''))} |")
    return lines + [""]


def syntax() -> str:
    """The rule syntax: one table per object of the two file formats."""
    lines = _keys(CmpSchema, "`cmps/<slug>.json`: one CMP")
    lines += _keys(DetectSchema, "`detect`")
    lines += _keys(FramesSchema, "`frames`")
    lines += _keys(FixtureSchema, "`fixture`")
    lines += _keys(WordsSchema, "`words/<lang>.json`: one language")
    return "\n".join(lines)


def _accept(cmp) -> str:
    parts = [_codes(cmp.accept, "by label, inside the banner")]
    if cmp.frames.hosts:
        where = _codes(cmp.frames.hosts)
        parts = ([] if not cmp.accept else parts) + [f"in its iframe ({where}): {_codes(cmp.frames.accept)}"]
    return "; ".join(parts)


def _refuse(cmp) -> str:
    parts = [f"{key} {_codes(getattr(cmp, key))}" for key in ("reject", "settings", "save") if getattr(cmp, key)]
    frame = [f"{key} {_codes(getattr(cmp.frames, key))}" for key in ("reject", "settings", "save")
             if getattr(cmp.frames, key)]
    if frame:
        parts.append("in its iframe: " + ", ".join(frame))
    return "; ".join(parts) or "by label"


def _stored(cmp) -> str:
    text = _codes(cmp.cookies)
    return text + (f" / storage {_codes(cmp.storage)}" if cmp.storage else "")


def cmp_table() -> str:
    """The supported CMPs, in match order: one row per ``cmps/<slug>.json``."""
    lines = [f"## Supported CMPs ({len(CMPS)})", "",
             ("In match order (`priority`). Refuse: the CMP's own selectors, tried before any button found by "
              "its label."), "",
             "| CMP | banner (`detect.selectors`) | accept | refuse | JS globals | consent stored in | file |",
             "|---|---|---|---|---|---|---|"]
    for cmp in CMPS:
        lines.append(f"| {_cell(cmp.name)} | {_codes(cmp.selectors)} | {_accept(cmp)} | {_refuse(cmp)} | "
                     f"{_codes(cmp.globals)} | {_stored(cmp)} | `{cmp.slug}.json` |")
    return "\n".join(lines) + "\n"


def language_table() -> str:
    """The languages of the text heuristic: one row per ``words/<lang>.json``."""
    lines = [f"## Languages of the text heuristic ({len(WORDS)})", "",
             "| code | language | accept phrases | reject words | examples |", "|---|---|---|---|---|"]
    for code, entry in WORDS.items():
        examples = ", ".join(f"“{p}”" for p in entry["accept"][:3])
        lines.append(f"| `{code}` | {entry['language']} | {len(entry['accept'])} | {len(entry['reject'])} | "
                     f"{_cell(examples)} |")
    return "\n".join(lines) + "\n"


PARTS = {"syntax": syntax, "cmps": cmp_table, "languages": language_table}


def render(doc: str) -> str:
    """``doc`` with every generated block rewritten from the rule files.
    Raises ValueError when a block of ``PARTS`` is missing."""
    missing = set(PARTS) - {m.group(2) for m in BLOCK.finditer(doc)}
    if missing:
        raise ValueError(f"docs/consent.md lacks the generated blocks {sorted(missing)}")
    return BLOCK.sub(lambda m: m.group(1) + PARTS[m.group(2)]().rstrip("\n") + "\n" + m.group(4), doc)


def main(argv: list[str] | None = None) -> int:
    """CLI entry point: print the document, ``--write`` it, or ``--check``
    (exit status 1 when docs/consent.md is stale)."""
    mode = (list(sys.argv[1:] if argv is None else argv) or ["--print"])[0]
    current = DOC_PATH.read_text(encoding="utf-8")
    text = render(current)
    if mode == "--check":
        print("docs/consent.md is " + ("current" if text == current else "stale: python -m tools.cmp_table --write"))
        return int(text != current)
    if mode != "--write":
        sys.stdout.write(text)
        return 0
    DOC_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {DOC_PATH} ({len(CMPS)} CMPs, {len(WORDS)} languages)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
