"""Per-IP limit on sell-form submissions (Flask-Limiter; Redis storage when REDIS_URL is set).

Flask-Limiter keeps its storage and switches on the instance, so each app gets its own Limiter
rather than sharing a module singleton. A Redis outage must never turn a seller away, nor
switch the limit off: the limiter falls back to in-process counters until Redis is back, and
any other storage error is swallowed.
"""

from __future__ import annotations

from flask import Blueprint, Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address


def limit_submissions(app: Flask, blueprint: Blueprint) -> Limiter:
    redis_url = app.config.get("REDIS_URL")
    timeout = float(app.config["REDIS_SOCKET_TIMEOUT"])
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=redis_url or "memory://",
        storage_options={"socket_timeout": timeout, "socket_connect_timeout": timeout}
        if redis_url
        else {},
        swallow_errors=True,
        in_memory_fallback_enabled=True,
        key_prefix="sell",
    )
    limiter.limit(app.config["SELL_RATELIMIT"], methods=["POST"])(blueprint)
    app.extensions["sell_limiter"] = limiter
    return limiter
