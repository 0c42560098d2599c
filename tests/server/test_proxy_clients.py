"""Behind a reverse proxy on this machine, every limit counts the real client (issue 22, items
1 and 8): through a real nginx set up as docs/hosting.md says, and through a real `banker
serve`. Strangers are played from 127.0.0.2 and 127.0.0.3 ($BANKER_LOCAL_NETWORKS tells the
server that only 127.0.0.1 is this machine); the proxy is on 127.0.0.1.

Before (waitress, issue 22): the proxy's X-Forwarded-For was dropped, every stranger was
127.0.0.1, exempt, and 2,000 games came in 11 s from one client."""

from __future__ import annotations

import pytest

from tests.serving import NGINX_PROXY, nginx, request, serving

pytestmark = pytest.mark.slow
STRANGER, NEIGHBOUR = "127.0.0.2", "127.0.0.3"
LIMIT = 3  # games a minute from one client, for the test
ENV = {"BANKER_LOCAL_NETWORKS": "127.0.0.1/32", "BANKER_CREATES_PER_MINUTE": str(LIMIT)}


def create(url: str, source: str = "127.0.0.1", forwarded: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    body = {"players": ["Ann", "Bob"]}
    return request(f"{url}/api/v1/games", "POST", body, headers=headers, source=source).status_code


@pytest.fixture
def banker(tmp_path):
    with serving(tmp_path / "banker.db", env=ENV) as running:
        yield running


def test_behind_nginx_the_creation_limit_counts_each_real_client(banker, tmp_path):
    site = (
        "server { listen 127.0.0.1:{port};\n"
        f"    location / {{ proxy_pass {banker.url};{NGINX_PROXY} }}\n}}"
    )
    with nginx(tmp_path / "nginx", site) as proxy:
        assert [create(proxy.url, STRANGER) for _ in range(LIMIT + 1)] == [201] * LIMIT + [429]
        # Another client behind the same proxy is not held back by the first.
        assert create(proxy.url, NEIGHBOUR) == 201
        # A client that writes its own X-Forwarded-For: nginx appends the real address.
        assert create(proxy.url, STRANGER, forwarded="198.51.100.9") == 429
        # This machine itself (the Banker's laptop through its own proxy) is not counted.
        assert [create(proxy.url) for _ in range(LIMIT + 1)] == [201] * (LIMIT + 1)


def test_a_strangers_own_x_forwarded_for_is_not_believed(banker):
    statuses = [create(banker.url, STRANGER, forwarded=f"198.51.100.{i}") for i in range(LIMIT + 1)]
    assert statuses == [201] * LIMIT + [429]


def test_addresses_of_one_ipv6_64_count_as_one_client(banker):
    """As a proxy on this machine reports them: rotated inside 2001:db8:0:1::/64."""
    rotated = [create(banker.url, forwarded=f"2001:db8:0:1::{i:x}") for i in range(1, LIMIT + 2)]
    assert rotated == [201] * LIMIT + [429]
    assert create(banker.url, forwarded="2001:db8:0:2::1") == 201  # another /64


def test_an_ipv4_loopback_peer_seen_through_an_ipv6_socket_is_this_machine(tmp_path):
    """Served on :: (IPv4 and IPv6), a peer on 127.0.0.1 is ::ffff:127.0.0.1: still loopback,
    so a proxy there is trusted and the machine itself is not counted."""
    with serving(tmp_path / "b.db", "--host", "::", env={"BANKER_CREATES_PER_MINUTE": "3"}) as s:
        assert [create(s.url) for _ in range(LIMIT + 1)] == [201] * (LIMIT + 1)
        forwarded = [create(s.url, forwarded="192.0.2.7") for _ in range(LIMIT + 1)]
        assert forwarded == [201] * LIMIT + [429]
