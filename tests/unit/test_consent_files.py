"""The consent rule files: every CMP file and language file loads against its
schema, a wrong or unknown key is refused with the file and the key named,
match order is the ``priority`` of the files, every CMP has its fixture page,
and docs/consent.md's generated parts are current."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tagcrawl.engine.consent import rules
from tagcrawl.engine.consent.flow import RULES_ARG
from tagcrawl.engine.consent.rules import CMP_DIR, WORDS_DIR, RuleError, load_cmps, load_words

ROOT = Path(__file__).resolve().parents[2]
MARKUP = ROOT / "tests" / "support" / "web" / "cmps"


def _copy(tmp_path: Path, source: Path, name: str, edit) -> Path:
    """A copy of the rule folder ``source`` where ``edit(data)`` changed ``<name>.json``."""
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    path = folder / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_every_cmp_file_loads_and_every_file_is_one_cmp():
    cmps = load_cmps()
    assert [c.slug for c in cmps] == [c.slug for c in rules.CMPS]
    assert sorted(c.slug for c in cmps) == sorted(p.stem for p in CMP_DIR.glob("*.json"))
    assert len(cmps) >= 40


def test_match_order_is_the_priority_of_the_files_and_the_scanner_gets_it():
    priorities = [c.priority for c in rules.CMPS]
    assert priorities == sorted(priorities) and len(set(priorities)) == len(priorities)
    assert [c["name"] for c in RULES_ARG["cmps"]] == [c.name for c in rules.CMPS]


@pytest.mark.parametrize("edit, where", [
    (lambda d: d.update(rejcet=[".x"]), "rejcet: Unknown field."),
    (lambda d: d["detect"].update(selector=["#x"]), "detect.selector: Unknown field."),
    (lambda d: d["fixture"].update(acceptText="OK"), "fixture.acceptText: Unknown field."),
    (lambda d: d.pop("reject"), "reject: Missing data for required field."),
    (lambda d: d.update(accept="#one"), "accept: Not a valid list."),
    (lambda d: d.update(save=[""]), "save.0:"),
    (lambda d: d.update(priority="10"), "priority: Not a valid integer."),
    (lambda d: d["detect"].update(selectors=[]), "detect.selectors:"),
])
def test_a_wrong_or_unknown_key_is_refused_naming_the_file_and_the_key(tmp_path, edit, where):
    folder = _copy(tmp_path, CMP_DIR, "onetrust", edit)
    with pytest.raises(RuleError) as caught:
        load_cmps(folder)
    assert str(caught.value).startswith("cmps/onetrust.json: ") and where in str(caught.value), caught.value


def test_two_cmps_with_one_priority_or_one_name_are_refused(tmp_path):
    folder = _copy(tmp_path, CMP_DIR, "cookiebot", lambda d: d.update(priority=10))
    with pytest.raises(RuleError, match=r"cmps/\w+\.json: priority: the same as \w+\.json's"):
        load_cmps(folder)
    folder = _copy(tmp_path / "b", CMP_DIR, "cookiebot", lambda d: d.update(name="OneTrust"))
    with pytest.raises(RuleError, match=r"name: the same as"):
        load_cmps(folder)


def test_a_file_that_is_not_json_too_large_or_badly_named_is_refused(tmp_path):
    folder = tmp_path / "cmps"
    folder.mkdir()
    (folder / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(RuleError, match=r"cmps/broken.json: not JSON"):
        load_cmps(folder)
    (folder / "broken.json").write_text(" " * (rules.MAX_FILE_BYTES + 1), encoding="utf-8")
    with pytest.raises(RuleError, match=r"larger than"):
        load_cmps(folder)
    (folder / "broken.json").unlink()
    (folder / "Bad_Name.json").write_text("{}", encoding="utf-8")
    with pytest.raises(RuleError, match=r"Bad_Name.json: \(file\): the name must match"):
        load_cmps(folder)


def test_every_language_file_loads_and_an_unknown_key_is_refused(tmp_path):
    assert list(load_words()) == sorted(p.stem for p in WORDS_DIR.glob("*.json"))
    folder = _copy(tmp_path, WORDS_DIR, "de", lambda d: d.update(rejects=["nein"]))
    with pytest.raises(RuleError, match=r"^words/de.json: rejects: Unknown field\.$"):
        load_words(folder)


def test_no_save_word_is_a_reject_word_in_any_language():
    assert not set(rules.SAVE_WORDS) & set(rules.REJECT_WORDS)


def test_every_cmp_has_its_fixture_page():
    for cmp in rules.CMPS:
        assert cmp.fixture, f"{cmp.slug}.json has no fixture"
        page = (MARKUP / f"{cmp.slug}.html").read_text(encoding="utf-8")
        assert ("<!-- frame document" in page) == (cmp.fixture["mount"] == "frame"), cmp.slug
        assert (cmp.fixture["mount"] == "frame") == bool(cmp.frames.hosts), cmp.slug
    assert sorted(p.stem for p in MARKUP.glob("*.html")) == sorted(c.slug for c in rules.CMPS)


def test_docs_consent_md_generated_parts_are_current():
    from tools.cmp_table import DOC_PATH, render

    doc = Path(DOC_PATH).read_text(encoding="utf-8")
    assert render(doc) == doc, "run: python -m tools.cmp_table --write"
