"""Consent rules as data, loaded and validated once at import.

- ``CMPS``: the known CMPs, one file each, ``cmps/<slug>.json``
  (``schema.CmpSchema``; docs/consent.md "Rule syntax").  **Match order is
  stated here once: ascending ``priority``** (unique), so where two CMPs'
  banners are both shown, the lower number wins; the CMP whose own iframe host
  matches is checked before any banner.
- The vocabulary of the text heuristic, one file per language,
  ``words/<lang>.json`` (``schema.WordsSchema``), merged over the languages
  (sorted by code) into ``ACCEPT_PHRASES`` (per language) and the flat lists
  ``REJECT_WORDS``, ``SAVE_WORDS``, ``SETTINGS_WORDS``, ``NEVER_WORDS``
  (reject + settings + paywall + policy + age: a label that contains one is
  never clicked when accepting, unless it is exactly an accept phrase),
  ``CONSENT_WORDS`` and ``AGE_GATE_WORDS``.

A file that breaks its schema, two CMPs with one name or one priority, or a
file name that is not a slug (language code) raises ``RuleError`` naming the
file and the key, so the crawler does not start with a rule silently dropped.
Bounds: ``MAX_FILES`` files per folder, ``MAX_FILE_BYTES`` per file (checked
before parsing), the schema's ``MAX_ITEMS`` and ``MAX_TEXT``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from marshmallow import Schema, ValidationError

from tagcrawl.engine.consent.schema import Cmp, CmpSchema, WordsSchema

HERE = Path(__file__).parent
CMP_DIR = HERE / "cmps"
WORDS_DIR = HERE / "words"
#: Files per rule folder, and bytes per file.
MAX_FILES = 1000
MAX_FILE_BYTES = 64 * 1024
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: A language file's name: an ISO 639 code, with a region for a variant (``pt-br``).
LANG = re.compile(r"^[a-z]{2,3}(?:-[a-z]{2})?$")
#: Word lists of ``words/<lang>.json`` whose union is ``NEVER_WORDS``.
NEVER_KINDS = ("reject", "settings", "paywall", "policy", "age")

#: Cookie and storage names that mean "consent was stored" when the CMP is
#: not known (a regular expression, case-insensitive; not per language), used
#: by ``choice.evidence`` only: the one list of consent-cookie name patterns.
#: A choice stored under another name is not seen here (see docs/consent.md).
CONSENT_STORAGE_PATTERN = r"consent|cookie|gdpr|privacy|cmp|accept|agree|opt.?in|tcf|notice|eu.?cookie"


class RuleError(ValueError):
    """A rule file that cannot be used: ``"<file>: <key path>: <problem>"``."""


def _flat(messages, prefix: str = "") -> list[str]:
    """marshmallow's nested error messages as ``"key.sub.0: problem"`` lines."""
    if isinstance(messages, dict):
        return [line for key, inner in messages.items() for line in _flat(inner, f"{prefix}{key}.")]
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [f"{prefix.rstrip('.') or '(file)'}: {' '.join(messages)}"]
    return [line for inner in messages for line in _flat(inner, prefix)]


def read(path: Path, schema: Schema) -> dict:
    """One rule file, parsed and validated.

    Args:
        path: a ``.json`` file of at most ``MAX_FILE_BYTES`` bytes.
        schema: ``CmpSchema()`` or ``WordsSchema()``.
    Returns:
        the loaded data (``CmpSchema``: the keyword arguments of ``Cmp``
        without ``slug``).
    Raises:
        RuleError: too large, not JSON, or not the schema (every key in error named).
    """
    where = f"{path.parent.name}/{path.name}"
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RuleError(f"{where}: larger than {MAX_FILE_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RuleError(f"{where}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RuleError(f"{where}: (file): not a JSON object")
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise RuleError(f"{where}: " + "; ".join(_flat(exc.messages))) from None


def _files(folder: Path, name: re.Pattern) -> list[Path]:
    paths = sorted(folder.glob("*.json"), key=lambda p: p.stem)
    if len(paths) > MAX_FILES:
        raise RuleError(f"{folder.name}/: more than {MAX_FILES} files")
    for path in paths:
        if not name.match(path.stem):
            raise RuleError(f"{folder.name}/{path.name}: (file): the name must match {name.pattern}")
    return paths


def load_cmps(folder: Path = CMP_DIR) -> list[Cmp]:
    """Every ``<slug>.json`` of ``folder`` (at most ``MAX_FILES``), validated,
    in match order (ascending ``priority``).  Raises ``RuleError`` (see the
    module docstring)."""
    schema, cmps = CmpSchema(), []
    for path in _files(folder, SLUG):
        cmps.append(Cmp(slug=path.stem, **read(path, schema)))
    for key in ("name", "priority"):
        seen: dict = {}
        for cmp in cmps:
            other = seen.setdefault(getattr(cmp, key), cmp.slug)
            if other != cmp.slug:
                raise RuleError(f"{folder.name}/{cmp.slug}.json: {key}: the same as {other}.json's")
    return sorted(cmps, key=lambda c: c.priority)


def load_words(folder: Path = WORDS_DIR) -> dict[str, dict]:
    """Every ``<lang>.json`` of ``folder`` (at most ``MAX_FILES``), validated:
    ``{code: {language, accept, reject, save, settings, paywall, policy, age,
    consent, age_gate}}``, sorted by code.  Raises ``RuleError``."""
    schema = WordsSchema()
    return {path.stem: read(path, schema) for path in _files(folder, LANG)}


def merged(words: dict[str, dict], *kinds: str) -> list[str]:
    """The words of ``kinds`` over every language, in file order, each once."""
    return list(dict.fromkeys(w for entry in words.values() for kind in kinds for w in entry[kind]))


CMPS: list[Cmp] = load_cmps()
WORDS: dict[str, dict] = load_words()
LANGUAGES: dict[str, str] = {code: entry["language"] for code, entry in WORDS.items()}
ACCEPT_PHRASES: dict[str, list[str]] = {code: entry["accept"] for code, entry in WORDS.items()}
REJECT_WORDS = merged(WORDS, "reject")
SAVE_WORDS = merged(WORDS, "save")
SETTINGS_WORDS = merged(WORDS, "settings")
NEVER_WORDS = merged(WORDS, *NEVER_KINDS)
CONSENT_WORDS = merged(WORDS, "consent")
AGE_GATE_WORDS = merged(WORDS, "age_gate")
