"""The optional market-data provider (docs/prices.md, "Market prices"): once a night, the
market price of each reference in the guide, shown to staff beside our range, and a flag on
entries whose range has drifted from it by more than MARKET_DRIFT_PERCENT. Sellers never see it.

Off while MARKET_DATA_URL is empty. The provider is asked `GET <URL>?brand=&reference=` with
MARKET_DATA_API_KEY as a bearer token and answers `{"price": <dollars>}`. Each question waits
MARKET_DATA_TIMEOUT seconds at most; a rate limit (429) is honoured once, for a Retry-After of
at most MAX_WAIT seconds; a redirect is never followed (it would carry the key to wherever it
points). An error, a time-out, a redirect, an answer that is not a price, or any exception at
all is recorded against that reference and the run goes on; once the run has taken
MARKET_DATA_DEADLINE seconds, the references left are recorded as not asked and it ends.
Nothing here touches the guide itself, so the seller's range works the same whatever the
provider does.
"""

from __future__ import annotations

import json
import math
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlencode

from flask import current_app

from app.forms.fields import MAX_DOLLARS
from app.leads.db import get_db, immediate_transaction, now
from app.prices import guide
from app.security.outbound import OPENER

MAX_WAIT = 30  # seconds: a longer Retry-After skips the reference until the next run
NOT_ASKED = "not asked: the run reached its deadline (MARKET_DATA_DEADLINE)"


class MarketError(RuntimeError):
    """The provider gave no usable price for one reference; the message says why."""


class RateLimited(MarketError):
    """The provider asked us to wait (HTTP 429) `seconds` before asking again."""

    def __init__(self, seconds: float):
        super().__init__(f"rate limited (Retry-After {seconds:g} s)")
        self.seconds = seconds


@dataclass
class Run:
    """What one night's run did."""

    fetched: int = 0
    failed: list[str] = field(default_factory=list)
    not_asked: int = 0

    def summary(self) -> str:
        """'12 fetched, 1 failed (Rolex 126610LN: time-out), 30 not asked (...)'."""
        failed = f", {len(self.failed)} failed ({'; '.join(self.failed)})" if self.failed else ""
        late = (
            f", {self.not_asked} not asked (the run reached its deadline, MARKET_DATA_DEADLINE)"
            if self.not_asked
            else ""
        )
        return f"{self.fetched} fetched{failed}{late}"


def configured() -> bool:
    """Whether a provider is set up."""
    return bool(current_app.config["MARKET_DATA_URL"])


def retry_after(error: urllib.error.HTTPError) -> float:
    """The seconds a 429 asks us to wait (1 if it does not say)."""
    try:
        return max(0.0, float(error.headers.get("Retry-After", "1")))
    except ValueError:
        return 1.0


def ask(brand: str, reference: str) -> int:
    """The provider's price for one reference, in whole dollars; MarketError if none."""
    config = current_app.config
    url = f"{config['MARKET_DATA_URL']}?{urlencode({'brand': brand, 'reference': reference})}"
    headers = {
        "Accept": "application/json",
        "Authorization": f"Bearer {config['MARKET_DATA_API_KEY']}",
    }
    request = urllib.request.Request(url, headers=headers)
    try:
        with OPENER.open(request, timeout=config["MARKET_DATA_TIMEOUT"]) as response:
            body = response.read(65536)
    except urllib.error.HTTPError as error:
        if error.code == 429:
            raise RateLimited(retry_after(error)) from error
        if 300 <= error.code < 400:
            raise MarketError(f"a redirect (HTTP {error.code}), not followed") from error
        raise MarketError(f"HTTP {error.code}") from error
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        raise MarketError(
            "no answer in time" if "timed out" in str(error) else "no answer"
        ) from error
    try:
        price = json.loads(body)["price"]
    except (ValueError, KeyError, TypeError) as error:
        raise MarketError("an answer without a price") from error
    if (
        isinstance(price, bool)
        or not isinstance(price, int | float)
        or not 0 < price <= MAX_DOLLARS
    ):
        raise MarketError("an answer without a price")
    return round(price)


def ask_patiently(brand: str, reference: str) -> int:
    """ask(), waiting once for a rate limit that asks at most MAX_WAIT seconds."""
    try:
        return ask(brand, reference)
    except RateLimited as limited:
        if limited.seconds > MAX_WAIT:
            raise
        time.sleep(limited.seconds)
        return ask(brand, reference)


def record(brand: str, reference: str, price: int | None, error: str | None) -> None:
    """Keep a price (clearing any error) or an error (keeping the last price)."""
    key = guide.key(reference)
    with immediate_transaction() as db:
        db.execute(
            "INSERT OR IGNORE INTO market_prices (brand, reference_key) VALUES (?, ?)", (brand, key)
        )
        if price is not None:
            db.execute(
                "UPDATE market_prices SET price = ?, fetched_at = ?, error = NULL, error_at = NULL "
                "WHERE brand = ? AND reference_key = ?",
                (price, now(), brand, key),
            )
        else:
            db.execute(
                "UPDATE market_prices SET error = ?, error_at = ? "
                "WHERE brand = ? AND reference_key = ?",
                (error, now(), brand, key),
            )


def price_or_error(brand: str, reference: str) -> tuple[int | None, str | None]:
    """ask_patiently()'s price, or why there is none: any exception (a body nested too deep
    for the JSON parser, a bug) belongs to this one reference, never to the whole run."""
    try:
        return ask_patiently(brand, reference), None
    except MarketError as error:
        return None, str(error)
    except Exception as error:
        current_app.logger.exception("Market price of %s %s: unexpected error.", brand, reference)
        return None, f"an unexpected error ({type(error).__name__})"


def fetch_all() -> Run:
    """Ask the provider for every real entry's reference, one at a time, until
    MARKET_DATA_DEADLINE seconds have passed (a question under way finishes); what was done."""
    run = Run()
    deadline = time.monotonic() + current_app.config["MARKET_DATA_DEADLINE"]
    for entry in guide.entries():
        brand, reference = entry["brand"], entry["reference"]
        if entry["sample"]:
            continue
        if time.monotonic() >= deadline:
            record(brand, reference, None, NOT_ASKED)
            run.not_asked += 1
            continue
        price, error = price_or_error(brand, reference)
        record(brand, reference, price, error)
        if error:
            run.failed.append(f"{brand} {reference}: {error}")
        else:
            run.fetched += 1
    return run


def prices_of(entries: list[dict]) -> dict[tuple[str, str], dict]:
    """The kept market prices of these entries only (a page of the staff list), by (brand,
    reference key)."""
    rows = get_db().execute(
        "SELECT market_prices.* FROM price_guide JOIN market_prices "
        "ON market_prices.brand = price_guide.brand "
        "AND market_prices.reference_key = price_guide.reference_key "
        "WHERE price_guide.id IN (SELECT value FROM json_each(:ids))",
        {"ids": json.dumps([entry["id"] for entry in entries])},
    )
    return {(row["brand"], row["reference_key"]): dict(row) for row in rows}


def whole_percent(value: float) -> int:
    """`value` rounded to a whole percent, halves away from zero: as SQLite's round() does, so
    the staff list's drifted filter (app/prices/listing.py) flags exactly the entries shown
    drifted."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def kept_for(entry: dict) -> dict[tuple[str, str], dict]:
    """The kept market price of one entry's reference, as prices_of() gives a page's."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM market_prices WHERE brand = ? AND reference_key = ?",
            (entry["brand"], guide.key(entry["reference"])),
        )
        .fetchone()
    )
    return {(row["brand"], row["reference_key"]): dict(row)} if row else {}


def beside(entry: dict, kept: dict[tuple[str, str], dict]) -> dict | None:
    """The market facts shown beside an entry: price, when, any error, the drift in percent
    (positive: our mid-range above the market) and whether it is flagged."""
    market = kept.get((entry["brand"], guide.key(entry["reference"])))
    if market is None:
        return None
    facts = {"price": market["price"], "fetched_at": market["fetched_at"], "error": market["error"]}
    if not market["price"]:
        return facts | {"drift": None, "flagged": False}
    mid = (entry["low"] + entry["high"]) / 2
    drift = whole_percent((mid - market["price"]) / market["price"] * 100)
    limit = current_app.config["MARKET_DRIFT_PERCENT"]
    return facts | {"drift": drift, "flagged": abs(drift) > limit}
