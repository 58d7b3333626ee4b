"""Webhook notifications: a JSON POST to an address a player gave, without opening the
server's network to them (SSRF).

A webhook address is chosen by whoever has an account, so it is untrusted: it could name the
server itself (``http://127.0.0.1:5432``), a machine of its private network, or a cloud's
metadata service (``169.254.169.254``). :func:`post_json` therefore

* accepts only ``http`` and ``https`` URLs without credentials, on any port;
* resolves the host once, refuses it when *any* of its addresses is not a public unicast
  address (loopback, private, link-local, shared, multicast, reserved, unspecified, IPv4 mapped
  in IPv6 ...) unless an address is inside a network the server's operator allowed
  (``--webhook-allow 127.0.0.1/32``: the tests' receiver), and connects to the address it
  checked (a second resolution could give another one: DNS rebinding), sending the original
  ``Host`` and, for HTTPS, checking the certificate against the original name;
* follows no redirect: a 3xx is a failure (the redirect's target is never requested, so a
  public address cannot send the request on to a private one);
* gives up after a short timeout (connecting and each read) and reads back at most a few
  kilobytes of the answer (only its status matters).

The request runs in a thread (``http.client``: no extra dependency); the caller awaits it.

>>> check_url("http://127.0.0.1:8080/hook")
Traceback (most recent call last):
...
sorry.web.webhooks.WebhookRefused: the address 127.0.0.1 is not public (loopback)
>>> check_url("ftp://example.org/")
Traceback (most recent call last):
...
sorry.web.webhooks.WebhookRefused: a webhook address must start with http:// or https://
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_URL = 500
TIMEOUT = 5.0
MAX_RESPONSE = 4096
USER_AGENT = "sorry-engine-notifier"


class WebhookRefused(ValueError):
    """The address may not be used (``str()`` says why, in English)."""


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect (``address``) and what to ask for."""

    scheme: str
    host: str  # as written (for Host and the certificate)
    address: str  # the checked IP address connected to
    port: int
    path: str


def not_public(addr: IPAddress) -> str | None:
    """Why ``addr`` is not a public unicast address, or None."""
    if isinstance(addr, ipaddress.IPv6Address):
        mapped = addr.ipv4_mapped or addr.sixtofour
        if mapped is not None:
            return not_public(mapped) or None
        if addr.teredo is not None:
            return "Teredo"
    checks = (  # the most telling reason first (``is_private`` covers several of them)
        ("loopback", addr.is_loopback),
        ("link-local", addr.is_link_local),
        ("multicast", addr.is_multicast),
        ("unspecified", addr.is_unspecified),
        ("shared", isinstance(addr, ipaddress.IPv4Address) and addr in _SHARED),
        ("private", addr.is_private),
        ("reserved", addr.is_reserved),
        ("not global", not addr.is_global),
    )
    for why, bad in checks:
        if bad:
            return why
    return None


_SHARED = ipaddress.ip_network("100.64.0.0/10")


def parse_networks(values: Sequence[str]) -> tuple[IPNetwork, ...]:
    """The server option's networks (``127.0.0.1``, ``10.0.0.0/8``); ValueError if one is not."""
    return tuple(ipaddress.ip_network(v.strip(), strict=False) for v in values)


def _resolve(host: str, port: int) -> list[IPAddress]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def check_url(
    url: str,
    allow: Sequence[IPNetwork] = (),
    resolve: Callable[[str, int], list[IPAddress]] = _resolve,
) -> Target:
    """The checked target of ``url``, or :class:`WebhookRefused`."""
    if not isinstance(url, str) or len(url) > MAX_URL or any(c.isspace() for c in url):
        raise WebhookRefused(f"a webhook address is at most {MAX_URL} characters, no spaces")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise WebhookRefused("a webhook address must start with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise WebhookRefused("a webhook address may not hold a user name or password")
    host = parts.hostname
    if not host:
        raise WebhookRefused("a webhook address needs a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise WebhookRefused("the webhook address's port is not a number") from None
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        try:
            addresses = resolve(host, port)
        except (OSError, UnicodeError):
            raise WebhookRefused(f"the host {host} cannot be resolved") from None
        if not addresses:
            raise WebhookRefused(f"the host {host} cannot be resolved")
    for a in addresses:
        why = not_public(a)
        if why is not None and not any(a in net for net in allow if a.version == net.version):
            raise WebhookRefused(f"the address {a} is not public ({why})")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, str(addresses[0]), port, path)


@dataclass(frozen=True)
class Delivery:
    ok: bool
    status: int | None
    detail: str


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address, the certificate checked against the name."""

    def __init__(self, target: Target, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=context)
        self._address = target.address
        self._context = context

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


def post_json(
    url: str,
    payload: dict[str, Any],
    allow: Sequence[IPNetwork] = (),
    timeout: float = TIMEOUT,
    max_response: int = MAX_RESPONSE,
    resolve: Callable[[str, int], list[IPAddress]] = _resolve,
    context: ssl.SSLContext | None = None,
) -> Delivery:
    """POST ``payload`` as JSON to ``url`` (blocking: run it in a thread). Never raises for
    what the receiver does; :class:`WebhookRefused` for an address it may not reach."""
    target = check_url(url, allow, resolve)
    body = json.dumps(payload, ensure_ascii=False).encode()
    conn: http.client.HTTPConnection
    if target.scheme == "https":
        conn = _PinnedHTTPS(target, timeout, context or ssl.create_default_context())
    else:
        conn = _PinnedHTTP(target, timeout)
    try:
        conn.request(
            "POST",
            target.path,
            body=body,
            headers={
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
                "Connection": "close",
            },
        )
        resp = conn.getresponse()
        resp.read(max_response)  # at most this much; the rest is dropped with the connection
        status = resp.status
    except (OSError, http.client.HTTPException) as exc:
        return Delivery(False, None, f"{type(exc).__name__}: {exc}"[:200])
    finally:
        conn.close()
    if 300 <= status < 400:
        return Delivery(False, status, "redirects are not followed")
    return Delivery(200 <= status < 300, status, f"HTTP {status}")
