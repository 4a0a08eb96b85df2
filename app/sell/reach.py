"""Where a seller's ZIP code is, and whether we can meet them there: the 13 cities' service
radius (REACH_MILES from each city's centre, the coordinates in content/cities/) decides if
an in-person sale is on offer; anywhere else in the 50 states and DC is offered the insured
mail. The ZIP codes are the `zipcodes` package's, shipped with it: nothing is fetched."""

from __future__ import annotations

from math import asin, cos, radians, sin, sqrt

import zipcodes

from app.content import queries
from app.sale.purchase.paperwork import US_STATES

REACH_MILES = 50  # the radius the city pages promise ("within 50 miles of ...")
EARTH_RADIUS_MILES = 3958.8


def load_when_offered(app) -> None:
    """While the sale by mail is offered, load the ZIP codes (about 56 MB) as the app is made,
    not on a seller's first post (0.4 s): gunicorn preloads the app, so its workers share the
    one copy."""
    if app.config["MAILIN_ENABLED"]:
        zipcodes.matching("10001")


def place(zip_code: str) -> dict | None:
    """The package's record of a five-digit ZIP code in use, or None for one it does not know
    (or that the Postal Service has retired)."""
    try:
        found = zipcodes.matching(zip_code)
    except ValueError:  # not a ZIP code's shape: the form's pattern rule says so first
        return None
    return found[0] if found and found[0]["active"] else None


def is_known(zip_code: str) -> bool:
    """Whether the ZIP code exists (a typo such as 00000 does not)."""
    return place(zip_code) is not None


def in_states(zip_code: str) -> bool:
    """Whether a known ZIP code is in the 50 states or DC (the ZIP data also has the territories
    and the military post offices, which neither sale reaches); an unknown one passes, as the
    is_known rule before it has already said what is wrong with it."""
    found = place(zip_code)
    return found is None or found["state"] in US_STATES


def miles_between(first: tuple[float, float], second: tuple[float, float]) -> float:
    """The great-circle distance in miles between two (latitude, longitude) points."""
    (lat1, lon1), (lat2, lon2) = (tuple(map(radians, point)) for point in (first, second))
    half = sin((lat2 - lat1) / 2) ** 2 + cos(lat1) * cos(lat2) * sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * asin(sqrt(half))


def nearest_city(zip_code: str) -> tuple[str, float] | None:
    """The city we cover nearest to the ZIP code and its distance in miles; None for a ZIP
    code that is unknown or has no coordinates."""
    found = place(zip_code)
    if found is None or not found.get("lat") or not found.get("long"):
        return None
    here = (float(found["lat"]), float(found["long"]))
    return min(
        (
            (city["city"], miles_between(here, (city["latitude"], city["longitude"])))
            for city in queries.cities()
        ),
        key=lambda pair: pair[1],
    )


def can_meet(zip_code: str) -> bool:
    """Whether a seller at this ZIP code can sell in person: within REACH_MILES of a city we
    cover. An unknown ZIP code is not refused here: its own rule (is_known) says what is wrong."""
    nearest = nearest_city(zip_code)
    return nearest is None or nearest[1] <= REACH_MILES
