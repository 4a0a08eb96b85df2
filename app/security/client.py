"""The client's address, under one name for the rate limits, sign-in throttling, the audit log
and a lead's record; and the group of addresses the request limits count as one client."""

from __future__ import annotations

import ipaddress

from flask import request

IPV6_CLIENT_PREFIX = 64  # one subscriber's network: its holder can use any address inside it


def client_address() -> str:
    """The address the request came from. Behind the documented proxy, ProxyFix has already put
    the trusted X-Forwarded-For here (app/security/headers.py), so it is the visitor's."""
    return request.remote_addr or ""


def address_group(address: str) -> str:
    """What a request limit counts `address` as: an IPv4 address as it is (an IPv4-mapped IPv6
    one as its IPv4), an IPv6 address as its /64, since one client can rotate through all of
    it. Anything else (no address at all) as given."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network((ip, IPV6_CLIENT_PREFIX), strict=False))


def rate_limit_address() -> str:
    """The request limiter's key for the client: its address, grouped as address_group says."""
    return address_group(client_address())
