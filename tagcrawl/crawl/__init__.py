"""The crawl service: one page crawled through ``steps.SEQUENCE``
(``service.run_crawl``), its report, rules, records, queued crawls."""
