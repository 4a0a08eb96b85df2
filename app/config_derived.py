"""Settings that follow from others, completed once the typed settings are in (the factory's
configure step): the instance's paths, the cache, queue and limiter backends on Redis with their
time-outs and single tries (app/redis_guard.py), and the hosts answered."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from app.redis_guard import client_settings


def derived_settings(config, instance: Path) -> dict:
    """Settings that follow from others: instance paths, cache and queue backends, hosts."""
    derived = {
        "CONTENT_DB": config["CONTENT_DB"] or str(instance / "content.db"),
        "LEADS_DB": config["LEADS_DB"] or str(instance / "leads.db"),
        "PAGES_DIR": config["PAGES_DIR"] or str(instance / "pages"),
        "CACHE_TYPE": config.get("CACHE_TYPE")
        or ("RedisCache" if config["REDIS_URL"] else "SimpleCache"),
        "TRUSTED_HOSTS": trusted_hosts(config),
    }
    redis = client_settings(config) if config["REDIS_URL"] else {}
    return derived | {"RATELIMIT_STORAGE_URI": "memory://"} | redis


def trusted_hosts(config) -> tuple[str, ...]:
    """TRUSTED_HOSTS; in production at least SITE_URL's own host."""
    if not config["TRUSTED_HOSTS"] and config["ENV_NAME"] == "production":
        return (urlsplit(config["SITE_URL"]).hostname,)
    return tuple(config["TRUSTED_HOSTS"])
