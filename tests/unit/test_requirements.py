"""Declared dependencies: every third-party package that tagcrawl imports directly is
in ``setup.cfg``'s ``install_requires`` (a transitive dependency may vanish with
its parent's next release) and pinned in ``requirements.txt``; and the country
list comes from babel (pycountry, 23 MB for one list, is gone)."""
from __future__ import annotations

import ast
import configparser
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
#: Calls that import a module named by a string (``files("flask_swagger_ui")``: Swagger UI's assets).
IMPORTING_CALLS = {"import_module", "files", "find_spec"}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_modules() -> dict[str, str]:
    """Top-level module -> the first file (relative) of tagcrawl/ that imports it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "tagcrawl").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
                  in IMPORTING_CALLS and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str) and not node.args[0].value.startswith(".")):
                names = [node.args[0].value]
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


def _install_requires() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    lines = config["options"]["install_requires"].strip().splitlines()
    return {_normal(Requirement(line.strip()).name) for line in lines if line.strip()}


def _pinned() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            requirement = Requirement(line)
            pins[_normal(requirement.name)] = str(requirement.specifier)
    return pins


@pytest.mark.slow
def test_every_imported_third_party_package_is_declared():
    distributions = packages_distributions()
    declared = _install_requires()
    third_party = {module: where for module, where in _imported_modules().items()
                   if module not in sys.stdlib_module_names and module not in {"tagcrawl", "__future__"}}
    assert {"flask", "selenium", "limits", "webargs", "alembic", "click"} <= set(third_party)
    unknown = {module: where for module, where in third_party.items() if module not in distributions}
    assert unknown == {}, "imported but not installed"
    missing = {module: (sorted(distributions[module]), where) for module, where in third_party.items()
               if not {_normal(d) for d in distributions[module]} & declared}
    assert missing == {}, "imported directly but not in setup.cfg install_requires"


def test_every_declared_requirement_is_pinned():
    pins = _pinned()
    unpinned = [name for name in _install_requires() if not pins.get(name, "").startswith("==")]
    assert unpinned == []


@pytest.mark.slow
def test_pycountry_is_gone():
    assert "pycountry" not in _install_requires() and "pycountry" not in _pinned()
    assert "pycountry" not in _imported_modules()


#: The codes pycountry 26.2.16 listed (ISO 3166-1 alpha-2, officially assigned): babel's list must stay this one.
PYCOUNTRY_CODES = """
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT
BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH
ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT
HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS
LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI
NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG
SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG
UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
""".split()


def test_country_codes_from_babel_are_the_iso_list():
    from tagcrawl.core.schemas.common import COUNTRY_CODES, NOT_COUNTRIES

    assert len(PYCOUNTRY_CODES) == 249
    assert COUNTRY_CODES == PYCOUNTRY_CODES + [code.lower() for code in PYCOUNTRY_CODES]
    assert not NOT_COUNTRIES & set(PYCOUNTRY_CODES)
    assert {"XK", "EU", "UN", "ZZ", "QO"} <= NOT_COUNTRIES  # CLDR territories that are no ISO country
