"""Settings that follow from others, completed once the typed settings are in (the factory's
configure step): the instance's paths, the cache, queue and limiter backends on Redis with their
time-outs, and the hosts answered."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from redis.connection import parse_url


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
    if config["REDIS_URL"]:
        timeout = config["REDIS_SOCKET_TIMEOUT"]  # a hung Redis fails fast, never hangs a seller
        derived["CACHE_REDIS_URL"] = config.get("CACHE_REDIS_URL") or config["REDIS_URL"]
        derived["RQ_CONNECTION"] = parse_url(config["REDIS_URL"]) | {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
        }
        derived["RQ_ASYNC"] = True  # Flask-RQ runs jobs inline under TESTING otherwise
        derived["RATELIMIT_STORAGE_URI"] = with_timeouts(config["REDIS_URL"], timeout)
    else:
        derived["RATELIMIT_STORAGE_URI"] = "memory://"
    return derived


def with_timeouts(redis_url: str, seconds: float) -> str:
    """A Redis URL whose connections give up after `seconds` (redis-py reads them from the
    query), for clients configured by URL alone, such as the request limiter's storage."""
    separator = "&" if "?" in redis_url else "?"
    return f"{redis_url}{separator}socket_timeout={seconds}&socket_connect_timeout={seconds}"


def trusted_hosts(config) -> tuple[str, ...]:
    """TRUSTED_HOSTS; in production at least SITE_URL's own host."""
    if not config["TRUSTED_HOSTS"] and config["ENV_NAME"] == "production":
        return (urlsplit(config["SITE_URL"]).hostname,)
    return tuple(config["TRUSTED_HOSTS"])
