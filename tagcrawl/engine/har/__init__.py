"""HAR 1.2 (HTTP Archive) in and out, with the crawl's own matcher.

* :func:`~tagcrawl.engine.har.read.pixels_by_page` -- any HAR file (Chrome DevTools,
  a proxy, tagcrawl's own export) -> ``{page id: marketingPixels}``
  (``flask --app wsgi pixels from-har FILE.har``); ``bodies.py`` reads each
  ``postData`` back into the body sent (base64, latin-1 text of other tools).
* :func:`~tagcrawl.engine.har.write.build_har` -- a crawl's captured requests -> a
  HAR document (stored with the crawl, ``GET /api/v1/crawls/<id>/har``).

Format: http://www.softwareishard.com/blog/har-12-spec/ (W3C draft
"HTTP Archive (HAR) format").  Details and limits: ``docs/har.md``.
"""
from tagcrawl.engine.har.read import pixels_by_page, requests_by_page
from tagcrawl.engine.har.write import build_har

__all__ = ["build_har", "pixels_by_page", "requests_by_page"]
