"""Every file the package reads at run time ships with it: each non-Python
file under ``tagcrawl/`` (JavaScript, templates, JSON/TOML data, migrations)
is matched by a ``setup.cfg`` ``package_data`` pattern."""
from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tagcrawl"


def test_every_data_file_is_in_package_data():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    patterns = [p.strip() for p in cfg["options.package_data"]["tagcrawl"].split(",") if p.strip()]
    shipped = {path for pattern in patterns for path in PACKAGE.glob(pattern) if path.is_file()}
    data = {path for path in PACKAGE.rglob("*") if path.is_file() and path.suffix not in (".py", ".pyc")
            and "__pycache__" not in path.parts}
    assert not data - shipped, f"not in setup.cfg package_data: {sorted(str(p.relative_to(ROOT)) for p in data - shipped)}"
