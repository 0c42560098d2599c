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
`127.0.0.1/32`, so that the tests can play a stranger from 127.0.0.2): banker.settings reads it,
the server hands it to `configure` when it starts.

A trusted proxy's last X-Forwarded-For entry that is not a plain address (`203.0.113.9:5123`,
`[2001:db8::1]:443`, `unknown`) is still a client, never this machine: an address with a port
counts as the address, anything else as its text (cut to 64 characters).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from banker import settings

LOCAL = "local"  # the key of this machine's own clients (not capped, not rate limited)


LOCAL_NETWORKS: tuple = settings.default(settings.BY_NAME["local_networks"])


def configure(networks: tuple) -> None:
    """The networks that are this machine ($BANKER_LOCAL_NETWORKS, read by banker.settings)."""
    global LOCAL_NETWORKS
    LOCAL_NETWORKS = tuple(networks)
    _parse.cache_clear()
    client_key.cache_clear()


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
    """The client's address: `peer`, or the last entry of X-Forwarded-For (`header`) when the
    peer is a proxy on this machine (loopback): its address when it carries a port, else as it
    is (cut to 64 characters), a client to limit either way."""
    if not header or not header.strip() or not is_loopback(peer):  # no proxy said anything
        return peer
    last = header.rsplit(",", 1)[-1].strip()[:64]
    if _parse(last) is not None:
        return last
    if last.startswith("[") and "]:" in last:  # [2001:db8::1]:443
        bare = last[1 : last.index("]")]
    else:  # 203.0.113.9:5123
        bare = last.rpartition(":")[0] if last.count(":") == 1 else ""
    parsed = _parse(bare) if bare else None
    if parsed is not None and not _local(parsed):
        return bare
    return f"unreadable:{last}"


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
