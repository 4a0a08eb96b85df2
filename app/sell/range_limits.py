"""Who may read the buy-price guide through the instant range (docs/prices.md, "The instant
range's limits"): it answers a seller typing, not a script reading the guide whole. Each client
(an IPv6 one by its /64, app/security/client.py) may ask SELL_RANGE_RATELIMIT (60 a minute, 300
a day); past that it gets a 429 with Retry-After and no range.

The form's own pages draw the range too, for the watch a refused post described (an invalid
form, a post without its CSRF token): each range they draw is charged to the same per-client
budget (one shared limit, SCOPE), so a client past its limit reads no range there either.

Unusual volume is e-mailed to staff at most once a day (UTC), the day claimed in daily_runs so
that one process of all sends it: the first time that day a client reaches its limit, or the
answers to all clients together pass SELL_RANGE_ALERT_PER_DAY. Both are cheap to know: the
limiter already counts each client, and one more counter in its storage (Redis when REDIS_URL
is set, so every worker adds to the same total) counts everyone.
"""

from __future__ import annotations

from flask import current_app
from flask_limiter import RequestLimit
from limits import parse, parse_many
from limits.errors import StorageError
from redis.exceptions import RedisError

from app import queue
from app.extensions import LIMITS_KEY_PREFIX, limiter
from app.leads.db import claim_today, claimed_today
from app.security.client import rate_limit_address

ALERTED = "sell-range-alert"  # daily_runs name of the day's e-mail to staff
ALL_CLIENTS = "sell-range-all-clients"  # the limiter storage's key for the day's total
SCOPE = "sell-range"  # the shared limit's name: every range a client is shown, wherever


def per_client() -> str:
    """The limit each client asks under (a callable, so each app reads its own setting)."""
    return current_app.config["SELL_RANGE_RATELIMIT"]


def client_reached_its_limit(limit: RequestLimit) -> None:
    """The limiter's on_breach: which client, in the log; staff told, once a day."""
    alert_staff_once(f"{rate_limit_address()} reached its limit of {limit.limit}")


def within_limit() -> bool:
    """Charge one range drawn on the sell form's own page to the client's budget (the counters
    /sell/range counts in, each of its limits in turn, as the limiter does): whether it is
    still within. Past it, staff told as for /sell/range. Without limits everything is within;
    a storage outage loses the count, never the seller's range."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return True
    client = rate_limit_address()
    try:
        for item in sorted(parse_many(per_client())):
            if not limiter.limiter.hit(item, LIMITS_KEY_PREFIX, client, SCOPE):
                alert_staff_once(f"{client} reached its limit of {item}")
                return False
    except (RedisError, StorageError) as error:
        current_app.logger.warning("Instant range: a page's range not counted (%s).", error)
    return True


def count_answer() -> None:
    """Count one answer in the day's total for all clients; staff told past
    SELL_RANGE_ALERT_PER_DAY. Without limits (tests, RATELIMIT_ENABLED=0) nothing is counted;
    a storage outage loses the count, never the seller's answer."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    per_day = parse(f"{current_app.config['SELL_RANGE_ALERT_PER_DAY']} per day")
    try:
        within = limiter.limiter.hit(per_day, ALL_CLIENTS)
    except (RedisError, StorageError) as error:
        current_app.logger.warning("Instant range: the day's total not counted (%s).", error)
        return
    if not within:
        alert_staff_once(f"all clients together passed {per_day.amount} answers today")


def alert_staff_once(reason: str) -> None:
    """Log `reason` and queue the staff e-mail, unless today's is claimed already (read
    first, so a client hammering past its limit does not take the write lock each time)."""
    current_app.logger.warning("Instant range: %s.", reason)
    if not claimed_today(ALERTED) and claim_today(ALERTED):
        queue.enqueue(queue.ALERT_RANGE_VOLUME)
