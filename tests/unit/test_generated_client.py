"""The client that openapi-python-client (the ecosystem's generator) writes from
``/openapi.json``: its names and types, as a user of the client sees them.

Function modules are named after the operation ids, in one package per group
(``api/crawl/get_crawl.py``); each enum is one class (a nullable one is
``Optional[...]`` of that class, not three copies); the HAR answer is a typed
model.  Driving a live service with the generated client is
``tests/browser/test_contract_client.py``.
"""
from __future__ import annotations

import enum
import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tagcrawl import create_app

PACKAGE = "tagcrawl_names_client"

#: group -> the function modules of its operations.
API_MODULES = {
    "crawl": {"crawl", "get_crawl", "list_crawls", "get_crawl_har", "list_vendors", "get_screenshot"},
    "stream": {"ingest_event", "preflight_event", "list_events", "get_tag_js"},
    "meta": {"health", "ready", "get_openapi", "get_docs"},
}


def _generator() -> Path:
    found = Path(sys.executable).parent / "openapi-python-client"
    if not found.exists():
        pytest.skip("openapi-python-client is not installed (requirements-dev.txt)")
    return found


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """(package path, imported package) of the client generated from the app's document."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})
    root = tmp_path_factory.mktemp("client")
    document = root / "openapi.json"
    document.write_text(json.dumps(app.test_client().get("/openapi.json").get_json()))
    generator = _generator()
    done = subprocess.run([str(generator), "generate", "--path", str(document), "--meta", "none",
                           "--output-path", str(root / PACKAGE)], capture_output=True, text=True, timeout=300,
                          env={"PATH": f"{generator.parent}:/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(root))
    try:
        yield root / PACKAGE, importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.mark.slow
def test_function_modules_are_named_after_clean_operation_ids(generated):
    path, _package = generated
    found = {group.name: {m.stem for m in group.glob("*.py") if m.stem != "__init__"}
             for group in (path / "api").iterdir() if group.is_dir() and group.name != "__pycache__"}
    assert found == API_MODULES
    crawl = importlib.import_module(PACKAGE + ".api.crawl.crawl")
    assert {"sync", "sync_detailed", "asyncio", "asyncio_detailed"} <= set(vars(crawl))


def _enums(models) -> dict[str, type]:
    return {name: cls for name, cls in vars(models).items()
            if inspect.isclass(cls) and issubclass(cls, enum.Enum) and cls.__module__.startswith(PACKAGE)}


def test_each_enum_is_one_class(generated):
    models = importlib.import_module(PACKAGE + ".models")
    enums = _enums(models)
    values = [frozenset(member.value for member in cls) for cls in enums.values()]
    assert len(values) == len(set(values)), sorted(enums)
    assert not [name for name in enums if "Type" in name and name[-1].isdigit()]  # no ..._type_1, ..._type_2_type_1
    assert {"ConsentAction", "ConsentStatus", "ConsentPhase", "RuleCondition", "RuleType", "BlockReason",
            "CrawlStatus"} <= set(enums)
    for model, attribute, enum_name in [("Options", "consent_action", "ConsentAction"),
                                        ("ValidationRule", "condition", "RuleCondition"),
                                        ("ValidationRule", "rule_type", "RuleType"),
                                        ("ButtonAttributes", "error_message", "BlockReason"),
                                        ("ConsentModeState", "ad_storage", "ConsentStatus"),
                                        ("ConsentModeState", "ad_personalization", "ConsentStatus")]:
        annotation = str(getattr(models, model).__annotations__[attribute])
        assert enum_name in annotation and "None" in annotation, (model, attribute, annotation)
    rule = models.ValidationRule.from_dict({"rule_id": "4baf9d6d-e8db-4ea4-9800-eaaf06b0641f", "vendor": "v",
                                            "key": "k", "value": "x", "condition": None, "rule_type": "Pixel"})
    assert rule.condition is None and rule.rule_type is models.RuleType.PIXEL


def test_har_answer_is_a_typed_model(generated):
    from tagcrawl.engine.har.write import build_har
    from tagcrawl.engine.vendors.types import Request

    models = importlib.import_module(PACKAGE + ".models")
    har_api = importlib.import_module(PACKAGE + ".api.crawl.get_crawl_har")
    assert "Har" in str(inspect.signature(har_api.sync).return_annotation)
    har = build_har([Request(url="https://www.facebook.com/tr?id=1", frame_url="https://shop.example/",
                             post_data="a=1", timestamp=1_700_000_000_000)], "https://shop.example/",
                    version="0.1.0")
    parsed = models.Har.from_dict(har)
    assert isinstance(parsed.log, models.HarLog) and isinstance(parsed.log.creator, models.HarCreator)
    assert parsed.log.creator.name == "tagcrawl"
    entry = parsed.log.entries[0]
    assert isinstance(entry, models.HarEntry) and isinstance(entry.request, models.HarRequest)
    assert entry.request.url == "https://www.facebook.com/tr?id=1" and entry.request.post_data.text == "a=1"
    assert isinstance(parsed.log.pages[0], models.HarPage) and parsed.log.pages[0].id == "page_1"
