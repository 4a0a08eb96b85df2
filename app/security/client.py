"""The client's address, under one name for the rate limits, sign-in throttling, the audit log
and a lead's record."""

from __future__ import annotations

from flask import request


def client_address() -> str:
    """The address the request came from. Behind the documented proxy, ProxyFix has already put
    the trusted X-Forwarded-For here (app/security/headers.py), so it is the visitor's."""
    return request.remote_addr or ""
