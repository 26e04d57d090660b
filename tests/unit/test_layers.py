"""Every module of tagcrawl sits in a layer of the import-linter contract
(``setup.cfg``, docs/architecture.md): its top package under ``tagcrawl/`` is
one of the contract's layers.  A module outside them would be checked by no
layer rule, so adding one fails here first."""
from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tagcrawl"
#: Outside the layers on purpose: the factory (it wires every layer) and the migrations (alembic scripts).
WIRING = {"tagcrawl", "tagcrawl.migrations"}


def layers() -> list[str]:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    raw = cfg["importlinter:contract:layers"]["layers"]
    return [name for line in raw.split("\n") for name in re.split(r"[:|]", line) if name.strip()
            for name in [name.strip()]]


def test_the_contract_names_whole_packages_only():
    names = layers()
    assert names == [n for n in names if n.count(".") == 1], "a layer is a top package of tagcrawl"
    assert all((PACKAGE / n.split(".")[1] / "__init__.py").exists() for n in names)


def test_every_module_sits_in_a_layer():
    allowed = set(layers())
    stray = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        top = ".".join(parts[:2]) if len(parts) > 2 or parts[-1] != "__init__" else "tagcrawl"
        if len(parts) == 2 and parts[1] != "__init__":
            top = ".".join(parts)  # a flat module directly under tagcrawl/
        if top not in allowed and top not in WIRING:
            stray.append(str(path.relative_to(ROOT)))
    assert not stray, f"modules in no layer of setup.cfg: {stray}"


def test_no_flat_modules_under_the_package():
    flat = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert flat == [], f"a module's path must tell its layer: move {flat} into a layer's package"
