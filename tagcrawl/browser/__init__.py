"""Headless Chrome: building drivers (``driver_factory``), the per-worker pool
(``pool``), the CDP connection (``cdp``), per-crawl browser contexts and
network capture (``session``, ``capture``), and page actions (``consent``,
``blocking``)."""
