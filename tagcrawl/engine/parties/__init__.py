"""Who a page talks to: third-party-web's organisations (``entities.py``) and
the ``thirdParties`` list of a crawl (``attribution.py``)."""
