"""Where the egress proxy may connect: resolve once, check, connect to that address.

The model is Stripe's Smokescreen: the proxy resolves a host itself, checks
every address it got, and then connects to the checked address, never to the
name again, so a DNS answer that changes between check and use (rebinding)
cannot slip past.  Addresses are judged by ``netguard.address_reason``
(loopback, private, link-local, CGNAT, metadata, unspecified, multicast,
reserved; IPv4-mapped, 6to4 and NAT64 forms by their IPv4 address).

Operator mappings are trusted, page choices are not: a name the operator
mapped with ``--host-resolver-rules`` goes to the mapped address unchecked
(on the rule's port, or 80/443 when the rule names none; never a port the
page picked); an IP literal, an excluded or unmapped name is checked.
"""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass, field

from tagcrawl.core.netguard import address_reason, canonical_host, name_reason
from tagcrawl.engine.egress.rules import HostRules, NameNotFound, is_literal


class EgressRefused(Exception):
    """The policy refuses a destination; ``str(exc)`` says why."""


class Unresolvable(EgressRefused):
    """The destination's name does not resolve."""


@dataclass(frozen=True)
class Target:
    """Where to connect: ``address`` is an IP literal (no brackets), ``port`` TCP.

    ``mapped`` is True when an operator rule chose the address."""

    host: str
    address: str
    port: int
    mapped: bool = False


def system_resolve(host: str) -> list[str]:
    """Addresses of ``host`` from the system resolver, in its order of preference.

    Raises:
        Unresolvable: the name does not resolve.
    """
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise Unresolvable(f"host {host} does not resolve") from exc
    return list(dict.fromkeys(info[4][0].split("%")[0] for info in infos))


@dataclass(frozen=True)
class EgressPolicy:
    """The egress proxy's decision for one destination.

    Args:
        rules: the operator's host-resolver rules (trusted).
        allow_private: ``TAGCRAWL_ALLOW_PRIVATE_TARGETS``; skips the address checks.
        resolve: ``fn(host) -> [address, ...]``, raising EgressRefused; the
            system resolver by default (tests give their own to play rebinding).
    """

    rules: HostRules = field(default_factory=HostRules)
    allow_private: bool = False
    resolve: Callable[[str], list[str]] = system_resolve

    def decide(self, raw_host: str, port: int, tunnel: bool = True) -> Target:
        """Where a request for ``raw_host:port`` may go.

        Args:
            tunnel: a CONNECT (https, ws, wss) rather than a plain-http request;
                picks the default port (443 or 80) for an operator mapping
                without a port when ``port`` is neither (``HostRules.rewrite``).

        Returns:
            Target with the one address to connect to.
        Raises:
            EgressRefused: refused (internal address, metadata name, unresolvable).
        """
        try:
            host = canonical_host(raw_host.strip("[]"))
        except ValueError as exc:
            raise EgressRefused(f"malformed host {raw_host!r}") from exc
        if not host or not 0 < port < 65536:
            raise EgressRefused(f"malformed destination {raw_host!r}:{port}")
        try:
            mapped = self.rules.rewrite(host, port, map_literals=self.allow_private,
                                        default_port=443 if tunnel else 80)
        except NameNotFound as exc:
            raise EgressRefused(f"host {host} is mapped to ~NOTFOUND") from exc
        if mapped is not None:
            return self.trusted(*mapped, label=host, remap=False)
        reason = None if self.allow_private else name_reason(host)
        if reason:
            raise EgressRefused(reason)
        addresses = [host] if is_literal(host) else self.resolve(host)
        if not addresses:
            raise Unresolvable(f"host {host} does not resolve")
        if not self.allow_private:
            for address in addresses:  # one internal answer condemns the name
                reason = address_reason(ipaddress.ip_address(address))
                if reason:
                    raise EgressRefused(f"host {host} is a {reason} address ({address})")
        return Target(host, addresses[0], port)

    def trusted(self, host: str, port: int, label: str | None = None, remap: bool = True) -> Target:
        """Where an operator-chosen ``host:port`` (a mapping's replacement, the
        upstream proxy) goes: mapped by the rules, resolved, never refused for
        its address.  ``host`` may be a name or an IP literal; ``label`` is
        the name asked for (kept in ``Target.host``), ``host`` by default.
        ``remap`` False for a mapping's own replacement (Chrome maps once).

        Raises:
            EgressRefused: the name does not resolve.
        """
        label = label or host
        if remap and not is_literal(host):
            try:
                again = self.rules.rewrite(host, port)
            except NameNotFound as exc:
                raise EgressRefused(f"host {host} is mapped to ~NOTFOUND") from exc
            if again is not None:
                host, port = again
        address = host if is_literal(host) else self.resolve(host)[0]
        return Target(label, address, port, mapped=True)
