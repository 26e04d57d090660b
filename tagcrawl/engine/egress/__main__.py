"""A shared egress proxy: ``python -m tagcrawl.engine.egress --listen 0.0.0.0:3128``.

For Selenium Grid nodes on other hosts (docs/security.md, "Set-ups"): run
this next to the Grid and point tagcrawl at it with
``TAGCRAWL_EGRESS_PROXY_URL=http://<this host>:3128``.  It enforces the same
policy as the proxy tagcrawl starts itself.

Options:
    --listen HOST:PORT          address to bind (default 127.0.0.1:3128)
    --host-resolver-rules RULES the operator's mapping, as given to Chrome
    --allow-private             TAGCRAWL_ALLOW_PRIVATE_TARGETS semantics
    --upstream URL              chain every request to this http:// proxy
    --conn-buffer-bytes N       bytes queued per connection and direction
    --total-buffer-bytes N      bytes queued by the whole proxy
    --stall-timeout S           seconds a connection with bytes pending may move none
                                (the last three default to the TAGCRAWL_EGRESS_* settings)

Runs until SIGINT or SIGTERM.
"""
from __future__ import annotations

import argparse
import logging
import signal
import threading

from tagcrawl.core.settings import load_settings
from tagcrawl.engine.egress.flow import Limits
from tagcrawl.engine.egress.policy import EgressPolicy
from tagcrawl.engine.egress.rules import parse_rules
from tagcrawl.engine.egress.server import EgressServer


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv``, serve until a signal; prints one line with the address."""
    parser = argparse.ArgumentParser(prog="python -m tagcrawl.engine.egress", description=__doc__.split("\n")[0])
    parser.add_argument("--listen", default="127.0.0.1:3128")
    parser.add_argument("--host-resolver-rules", default="")
    parser.add_argument("--allow-private", action="store_true")
    parser.add_argument("--upstream", default=None)
    defaults = Limits.of(load_settings())
    parser.add_argument("--conn-buffer-bytes", type=int, default=defaults.conn_bytes)
    parser.add_argument("--total-buffer-bytes", type=int, default=defaults.total_bytes)
    parser.add_argument("--stall-timeout", type=float, default=defaults.stall_s)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    host, _, port = args.listen.rpartition(":")
    server = EgressServer(EgressPolicy(parse_rules(args.host_resolver_rules), args.allow_private),
                         listen_host=host.strip("[]") or "127.0.0.1",
                         limits=Limits(args.conn_buffer_bytes, args.total_buffer_bytes, args.stall_timeout))
    bound = server.port_for(args.upstream, int(port))
    done = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: done.set())
    print(f"tagcrawl egress proxy on {args.listen.rpartition(':')[0]}:{bound}", flush=True)
    done.wait()
    server.stop()


if __name__ == "__main__":
    main()
