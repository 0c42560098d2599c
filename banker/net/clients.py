"""Who a client is, for the limits that count clients: the peer's address, or, behind a reverse
proxy on this very machine, the address that proxy reports.

- A peer on loopback (127.0.0.0/8, ::1, and ::ffff:127.0.0.1, an IPv4 loopback address seen
  through an IPv6 socket) is this machine: a reverse proxy set up as docs/hosting.md says
  (nginx's `$proxy_add_x_forwarded_for`, Caddy's `reverse_proxy`). Its X-Forwarded-For is
  trusted, and only its last address: the one the proxy itself appended; anything before it
  came from the client and proves nothing.
- Any other peer's X-Forwarded-For is ignored: a stranger may write whatever it likes there.
- An IPv6 client counts as its /64 (one home, one phone's network: a client changes the other
  64 bits at will), an IPv4 client as its address.

"This machine" is the loopback networks unless $BANKER_LOCAL_NETWORKS names others (say
`127.0.0.1/32`, so that the tests can play a stranger from 127.0.0.2).
"""

from __future__ import annotations

import ipaddress
import os
from functools import lru_cache

LOCAL = "local"  # the key of this machine's own clients (not capped, not rate limited)


def _networks(text: str) -> tuple:
    return tuple(ipaddress.ip_network(n.strip()) for n in text.split(",") if n.strip())


LOCAL_NETWORKS = _networks(os.environ.get("BANKER_LOCAL_NETWORKS", "") or "127.0.0.0/8,::1/128")


@lru_cache(maxsize=4096)
def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]").partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_loopback(text: str) -> bool:
    """Whether `text` is an address of this machine's loopback (IPv4-mapped ones included)."""
    return _local(_parse(text or ""))


def _local(address) -> bool:
    return address is not None and any(address in n for n in LOCAL_NETWORKS)


def forwarded_for(peer: str, header: str | None) -> str:
    """The client's address: `peer`, or the last address of X-Forwarded-For (`header`) when
    the peer is a proxy on this machine (loopback)."""
    if header and is_loopback(peer):
        last = header.rsplit(",", 1)[-1].strip()
        if last and _parse(last) is not None:
            return last[:64]
    return peer


@lru_cache(maxsize=4096)
def client_key(address: str) -> str:
    """The key a limit counts: LOCAL for this machine, an IPv6 address's /64 network, an IPv4
    address as it is (an unreadable one as given, cut to 64 characters)."""
    parsed = _parse(address or "")
    if parsed is None:
        return (address or "?")[:64]
    if _local(parsed):
        return LOCAL
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(parsed) >> 64 << 64, 64)))
    return str(parsed)
