"""Consent compliance: the phase of every pixel and cookie (``phases``), the
consent signals pages and pixels carry (``tcf``, ``signals``) and the summary
``consent`` object of a CrawlResponse (``report``)."""
