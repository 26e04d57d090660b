"""Chrome's ``--host-resolver-rules``, read and applied the way Chrome applies them.

An operator (or the test suite's fixture web) points names at chosen addresses
with ``--host-resolver-rules="MAP * 127.0.0.1:8443, EXCLUDE localhost"`` in
``TAGCRAWL_CHROME_ARGS``.  Once all of Chrome's traffic goes through the egress
proxy, Chrome no longer resolves page hosts itself (it sends the name to the
proxy), so the proxy honours those rules instead.

Syntax and matching follow Chromium's ``net/base/host_mapping_rules.cc``:

- rules are separated by commas; each is ``MAP <pattern> <host>[:<port>]`` or
  ``EXCLUDE <pattern>`` (keywords case-insensitive, patterns lower-cased);
- ``*`` and ``?`` are wildcards (``base::MatchPattern``); a MAP pattern is tried
  against the host, then against ``host:port``;
- the first MAP rule that matches wins, unless an EXCLUDE pattern matches the
  host, in which case the name is not mapped at all;
- a replacement host ``~NOTFOUND`` makes the name unresolvable;
- rules Chrome cannot parse are ignored (Chrome logs and skips them too).

One difference on ports: Chrome gives a replacement without a port the
requested port, so a page could pick any port on the operator's host
(``MAP *.corp 10.1.2.3`` and ``http://a.corp:6379/``).  Given ``default_port``
(the policy does), ``rewrite`` keeps the requested port only when it is 80 or
443, the default ports of http/ws and https/wss, and otherwise uses
``default_port`` (443 for a CONNECT, 80 for plain http): the page picks the
scheme, never the port.  A rule that should reach another port names it
(``MAP x 10.1.2.3:8080``).

One deliberate difference, unless private targets are allowed: a wildcard
pattern never maps an IP literal.  A page that asks for
``http://127.0.0.1:9999/`` chose that address itself; only a rule that names
the literal exactly (``MAP 10.1.2.3 ...``) maps it.  With
``TAGCRAWL_ALLOW_PRIVATE_TARGETS`` on, nothing is filtered and the proxy maps
exactly as Chrome does (Chrome's ``MAP *`` maps IP literals too).
"""
from __future__ import annotations

import fnmatch
import ipaddress
import logging
import re
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

SWITCH = "--host-resolver-rules"
NOT_FOUND = "~NOTFOUND"
#: Ports a page may keep through a MAP rule without a port (http/ws, https/wss).
DEFAULT_PORTS = (80, 443)


class NameNotFound(Exception):
    """A ``MAP <pattern> ~NOTFOUND`` rule made this name unresolvable."""


@dataclass(frozen=True)
class MapRule:
    """``MAP pattern host[:port]``; ``port`` None: see ``HostRules.rewrite``."""

    pattern: str
    host: str
    port: int | None


@dataclass(frozen=True)
class HostRules:
    """Parsed ``--host-resolver-rules``; ``text`` is the switch value as given."""

    maps: tuple[MapRule, ...] = ()
    excludes: tuple[str, ...] = ()
    text: str = ""

    def rewrite(self, host: str, port: int, map_literals: bool = False,
                default_port: int | None = None) -> tuple[str, int] | None:
        """Where a mapping sends ``host:port``, or None when no rule maps it.

        Args:
            host: canonical host (lower-case, IPv6 without brackets).
            port: requested TCP port.
            map_literals: let wildcard patterns map IP literals (Chrome's own behaviour).
            default_port: for a replacement without a port, the port used when
                ``port`` is neither 80 nor 443; None keeps ``port`` (Chrome's behaviour).
        Returns:
            ``(host, port)`` of the replacement (host may be a name or an IP literal).
        Raises:
            NameNotFound: the matching rule's replacement is ``~NOTFOUND``.
        """
        literal = is_literal(host) and not map_literals
        host_port = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        for rule in self.maps:
            if literal and rule.pattern not in (host, host_port):
                continue  # wildcards never map an address the page picked
            if not (_match(host, rule.pattern) or _match(host_port, rule.pattern)):
                continue
            if any(_match(host, pattern) for pattern in self.excludes):
                return None
            if rule.host == NOT_FOUND.lower():
                raise NameNotFound(host)
            if rule.port is not None:
                return rule.host, rule.port
            return rule.host, port if default_port is None or port in DEFAULT_PORTS else default_port
        return None


def is_literal(host: str) -> bool:
    """True when ``host`` is an IPv4 or IPv6 address literal (no brackets)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _match(text: str, pattern: str) -> bool:
    # base::MatchPattern knows only * and ?; fnmatch would also read [..] as a class.
    return fnmatch.fnmatchcase(text, pattern.replace("[", "[[]"))


def _host_and_port(text: str) -> tuple[str, int | None]:
    match = re.fullmatch(r"\[([0-9a-fA-F:.]+)\](?::(\d+))?|([^:\s]+)(?::(\d+))?|([0-9a-fA-F:]+)", text)
    if not match:
        raise ValueError(text)
    host = match.group(1) or match.group(3) or match.group(5)
    port = match.group(2) or match.group(4)
    if port is not None and not 0 < int(port) < 65536:
        raise ValueError(text)
    return host.lower(), int(port) if port is not None else None


def parse_rules(text: str) -> HostRules:
    """Parse a ``--host-resolver-rules`` value (see the module docstring).

    Returns:
        HostRules; rules that do not parse are logged and skipped.
    """
    maps: list[MapRule] = []
    excludes: list[str] = []
    for raw in text.split(","):
        parts = raw.split()
        if not parts:
            continue
        keyword = parts[0].lower()
        try:
            if keyword == "exclude" and len(parts) == 2:
                excludes.append(parts[1].lower())
            elif keyword == "map" and len(parts) == 3:
                host, port = (NOT_FOUND.lower(), None) if parts[2] == NOT_FOUND else _host_and_port(parts[2])
                maps.append(MapRule(parts[1].lower(), host, port))
            else:
                raise ValueError(raw)
        except ValueError:
            log.warning("ignoring host-resolver rule %r (Chrome ignores it too)", raw.strip())
    return HostRules(tuple(maps), tuple(excludes), text)


@dataclass
class SplitArgs:
    """Chrome switches with ``--host-resolver-rules`` taken out."""

    rules: HostRules = field(default_factory=HostRules)
    others: list[str] = field(default_factory=list)


def split_rules(args) -> SplitArgs:
    """Take every ``--host-resolver-rules=...`` out of ``args``; the last one
    counts, as on Chrome's command line.  ``args`` is a sequence of switches."""
    split = SplitArgs()
    for arg in args:
        if arg.startswith(SWITCH + "="):
            split.rules = parse_rules(arg[len(SWITCH) + 1:])
        else:
            split.others.append(arg)
    return split
