"""tagcrawl's egress boundary: every byte Chrome sends leaves through a
filtering proxy that tagcrawl owns (see docs/security.md).

- ``rules``: Chrome's ``--host-resolver-rules``, honoured by the proxy;
- ``policy``: resolve once, check the address, connect to it;
- ``plugin``: the proxy.py plugin enforcing the policy;
- ``handler``: proxy.py's connection handler, with the client side of the bounds;
- ``flow``: bounded buffers (per connection, per proxy instance, the stall timeout);
- ``chain``: what a chained upstream proxy is sent (``CONNECT <checked ip>:<port>``);
- ``status``: the proxy's own answers (RFC 9209 ``Proxy-Status``), read back by the crawl;
- ``server``: the per-process proxy (threads, one port per route);
- ``chrome``: Chrome switches and the wiring of Chrome to the proxy;
- ``__main__``: ``python -m tagcrawl.engine.egress``, a shared proxy for remote Grid nodes.
"""
