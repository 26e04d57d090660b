"""The stream services, callable without HTTP (the views are ``web/views/stream.py``,
``events.py`` and ``tag.py``): tenants (``tenants.py``), the row of an event
(``normalize.py``, ``useragent.py``, ``origins.py``), the group-commit writer
and its stores (``writer.py``, ``store/``), reading and export (``events.py``,
``export.py``) and the browser tag's build (``tag/``).  docs/stream.md."""
