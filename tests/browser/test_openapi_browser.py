"""The API docs page (Swagger UI) rendered in Chrome; the document itself is
checked in tests/unit/test_openapi.py."""
from __future__ import annotations

import threading
import time

import pytest
from werkzeug.serving import make_server

from tests.support.config import settings
from tests.unit.test_openapi import docs_app  # noqa: F401 - fixture


@pytest.mark.browser
def test_docs_page_renders_every_operation_in_chrome(docs_app, private_pool, fixture_web):
    """Swagger UI (from the Python package) renders the document; the page
    fetches nothing from other hosts (they would land on the fixture web)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tagcrawl.engine.chrome.pool import get_pool

    server = make_server("127.0.0.1", 0, docs_app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    started = time.time()
    try:
        with get_pool(settings(private_pool(POOL_SIZE=1))).browser() as handle:
            driver = handle.driver
            # localhost: the only host name that Chrome does not send to the fixture web
            driver.get(f"http://localhost:{server.server_port}/docs")
            operations = sum(len(item) for item in docs_app.test_client().get("/openapi.json")
                             .get_json()["paths"].values())
            WebDriverWait(driver, 30).until(
                lambda d: len(d.find_elements(By.CSS_SELECTOR, ".opblock")) >= operations)
            title = driver.find_element(By.CSS_SELECTOR, ".info .title").text
            body = driver.find_element(By.TAG_NAME, "body").text
            groups = {section.find_element(By.CSS_SELECTOR, ".opblock-tag").get_attribute("data-tag"):
                      len(section.find_elements(By.CSS_SELECTOR, ".opblock"))
                      for section in driver.find_elements(By.CSS_SELECTOR, ".opblock-tag-section")}
            driver.get("about:blank")
    finally:
        server.shutdown()
    assert "tagcrawl" in title and "0.1.0" in title
    assert "Crawl a page" in body and "Ingest one event from the browser tag" in body
    # One section per group, none empty (blueprints are not groups: openapi.TAGS).
    assert list(groups) == ["crawl", "stream", "meta", "audit"] and all(groups.values()), groups
    assert sum(groups.values()) == operations
    page_origin = f"http://localhost:{server.server_port}"
    assert [e["url"] for e in fixture_web.log if e["time"] >= started
            and (e["headers"].get("Referer") or e["headers"].get("Origin") or "").startswith(page_origin)] == []
