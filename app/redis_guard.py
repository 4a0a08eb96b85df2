"""Redis where a seller waits: the queue's, the page cache's and the request limiter's clients
each wait at most REDIS_SOCKET_TIMEOUT and try once (redis-py's own ten retries with backoff
kept every seller's post 4 s on a Redis that was down), and after a failure Redis rests: for
REDIS_REST_SECONDS this process neither queues a job on it (the work is on record; the sweep
queues it, app/sale/pending.py) nor looks in the shared page cache (the page is rendered),
while the limiter counts in memory. A dead or hung Redis so costs one failed try per process
and period, not a wait on every request. Each app keeps its own rest."""

from __future__ import annotations

import time

from flask import Flask
from redis.backoff import NoBackoff
from redis.connection import parse_url
from redis.retry import Retry

REDIS_REST_SECONDS = 30


def client_settings(config) -> dict:
    """The Redis clients' settings for REDIS_URL (app/config.py derives them)."""
    url, timeout = config["REDIS_URL"], config["REDIS_SOCKET_TIMEOUT"]
    once = {"retry": Retry(NoBackoff(), 0)}
    waits = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    return {
        "CACHE_REDIS_URL": with_timeouts(config.get("CACHE_REDIS_URL") or url, timeout),
        "CACHE_OPTIONS": once,
        "RQ_CONNECTION": parse_url(url) | once | waits,
        "RQ_ASYNC": True,  # Flask-RQ runs jobs inline under TESTING otherwise
        "RATELIMIT_STORAGE_URI": with_timeouts(url, timeout),
        "RATELIMIT_STORAGE_OPTIONS": once,
    }


def with_timeouts(redis_url: str, seconds: float) -> str:
    """A Redis URL whose connections give up after `seconds` (redis-py reads them from the
    query), for clients configured by URL alone, such as the request limiter's storage."""
    separator = "&" if "?" in redis_url else "?"
    return f"{redis_url}{separator}socket_timeout={seconds}&socket_connect_timeout={seconds}"


def resting(app: Flask) -> bool:
    """Whether Redis failed this app (in this process) within the last REDIS_REST_SECONDS."""
    return app.extensions.get("redis_rest", 0.0) > time.monotonic()


def rest(app: Flask, error: Exception, what: str) -> None:
    """Leave Redis alone for REDIS_REST_SECONDS after `error`, saying what was not done."""
    app.extensions["redis_rest"] = time.monotonic() + REDIS_REST_SECONDS
    app.logger.warning("Redis failed (%s): %s; left alone for %s s.", error, what,
                       REDIS_REST_SECONDS)  # fmt: skip
