"""Where a lead came from beyond its UTM tags: the ad platforms' click ids, Meta's browser id,
the visit's landing page and the external site that referred it.

Both paths post the same fields. With JavaScript, every page's runtime records how the visit
arrived (components/runtime/arrival.js: the first page's query, path and referring host for the
visit; each landing address with a click id, and when it was first seen, in localStorage), and
the sell form sends what is still within its window (components/shared/utm.js, clickIds.js).
Without it, the /sell page's hidden fields carry what its own address held or, one step back,
what the page of this site that linked to it held, seen when the page was made (`page_fields`).
Nothing posted is trusted: a value that fails its syntax, or a click older than its platform's
attribution window, is dropped here and the lead is saved without it; the seller is never
refused for it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlsplit

from flask import current_app, request
from werkzeug.exceptions import HTTPException

GOOGLE_CLICK_IDS = ("gclid", "gbraid", "wbraid")
UTM_PARAMETERS = ("utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term")
CAMPAIGN_PARAMETERS = ("fbclid", *GOOGLE_CLICK_IDS, *UTM_PARAMETERS)
# Meta's and Google's click ids are URL-safe base64 text; 10 to 512 of those characters.
CLICK_ID = re.compile(r"[A-Za-z0-9_-]{10,512}")
# fb.<subdomain index>.<creation time, ms>.<fbclid> and fb.<index>.<creation time>.<random>
FBC = re.compile(r"fb\.[0-2]\.([0-9]{13})\.[A-Za-z0-9_-]{10,512}")
FBP = re.compile(r"fb\.[0-2]\.[0-9]{13}\.[0-9]{1,20}")
MILLIS = re.compile(r"[0-9]{13}")
# The blueprints of the pages anyone may land on (app/__init__.py registers them).
PUBLIC_BLUEPRINTS = {"pages", "blog", "sell", "privacy"}
LANDING_PATH = re.compile(r"/(?!/)[A-Za-z0-9/._~%-]{0,299}")
HOST_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
HOSTNAME = re.compile(rf"(?=.{{1,253}}$){HOST_LABEL}(?:\.{HOST_LABEL})*")
META_CLICK_WINDOW = timedelta(days=7)  # Meta's 7-day click attribution
GOOGLE_CLICK_WINDOW = timedelta(days=90)  # Google Ads' longest click-through window
CLOCK_AHEAD = timedelta(days=1)  # a browser's clock may run ahead of the server's


def utc_now() -> datetime:
    """The time every window is measured from."""
    return datetime.now(UTC)


def millis(moment: datetime) -> str:
    """A time as milliseconds since the epoch, as Meta's fbc and the browser's clock count it."""
    return str(int(moment.timestamp() * 1000))


def time_from_millis(text: str) -> datetime | None:
    """The time 13 digits of milliseconds name, or None for anything else."""
    return datetime.fromtimestamp(int(text) / 1000, UTC) if MILLIS.fullmatch(text) else None


def within_window(seen: datetime | None, window: timedelta, now: datetime) -> bool:
    """Whether a click seen at `seen` may still be attributed: not older than its platform's
    window, and not in the future beyond a browser clock's usual error."""
    return seen is not None and now - window <= seen <= now + CLOCK_AHEAD


def meta_click(fbc: str, now: datetime) -> str:
    """An fbc in Meta's format whose click is within Meta's window, else ""."""
    match = FBC.fullmatch(fbc)
    fresh = match and within_window(time_from_millis(match[1]), META_CLICK_WINDOW, now)
    return fbc if fresh else ""


def fbc_from_fbclid(fbclid: str, now: datetime) -> str:
    """Meta's fbc for a click id seen now: fb.1.<creation time in ms>.<fbclid>, else ""."""
    return f"fb.1.{millis(now)}.{fbclid}" if CLICK_ID.fullmatch(fbclid) else ""


def meta_browser_id(fbp: str) -> str | None:
    """The Meta pixel's _fbp cookie when it has Meta's format."""
    return fbp if FBP.fullmatch(fbp) else None


def google_click(source: Mapping, now: datetime) -> dict[str, str]:
    """Google's click ids with the time they were seen (ms), all dropped once past the window;
    a malformed id is dropped alone."""
    ids = {key: source.get(key, "") for key in GOOGLE_CLICK_IDS}
    ids = {key: value if CLICK_ID.fullmatch(value) else "" for key, value in ids.items()}
    seen = source.get("google_click_seen", "")
    fresh = within_window(time_from_millis(seen), GOOGLE_CLICK_WINDOW, now)
    if not (fresh and any(ids.values())):
        return dict.fromkeys([*GOOGLE_CLICK_IDS, "google_click_seen"], "")
    return ids | {"google_click_seen": seen}


def is_public_page(path: str) -> bool:
    """Whether `path` is the address of one of this site's public pages (a route of theirs
    answers GET for it): never a seller's status link or a staff page, whose addresses may
    carry a secret."""
    if not LANDING_PATH.fullmatch(path):
        return False
    try:
        endpoint, _args = current_app.url_map.bind("localhost").match(path, method="GET")
    except HTTPException:  # no such page, or not this page's own address (RequestRedirect)
        return False
    return endpoint.partition(".")[0] in PUBLIC_BLUEPRINTS


def own_hosts() -> set[str]:
    """This site's host names: SITE_URL's, TRUSTED_HOSTS and the one this request came to."""
    config = current_app.config
    hosts = {urlsplit(config["SITE_URL"]).hostname, *config["TRUSTED_HOSTS"]}
    return (hosts | {referring_address("//" + request.host).hostname}) - {None, ""}


def external_host(host: str) -> str:
    """A host name of another site, lower-cased, else "" (ours, or not a host name)."""
    host = host.strip().lower().rstrip(".")
    return host if HOSTNAME.fullmatch(host) and host not in own_hosts() else ""


def clean_fields(source: Mapping, now: datetime) -> dict[str, str]:
    """The attribution fields as posted, each kept only if valid (and fresh), else ""."""
    landing = source.get("landing_page", "")
    return {
        "fbc": meta_click(source.get("fbc", ""), now),
        **google_click(source, now),
        "landing_page": landing if is_public_page(landing) else "",
        "referrer_host": external_host(source.get("referrer_host", "")),
    }


def lead_columns(fields: Mapping[str, str], cookies: Mapping, now: datetime) -> dict:
    """The leads table's attribution columns from cleaned fields and the Meta pixel's cookies
    (its _fbc only when no click id was posted)."""
    seen = time_from_millis(fields["google_click_seen"])
    return {
        "fbc": fields["fbc"] or meta_click(cookies.get("_fbc", ""), now) or None,
        "fbp": meta_browser_id(cookies.get("_fbp", "")),
        **{key: fields[key] or None for key in GOOGLE_CLICK_IDS},
        "google_click_at": seen.isoformat(timespec="seconds") if seen else None,
        "landing_page": fields["landing_page"] or None,
        "referrer_host": fields["referrer_host"] or None,
    }


def carries_campaign(params: Mapping) -> bool:
    """Whether an address's parameters name a campaign or an ad click."""
    return any(params.get(key) for key in CAMPAIGN_PARAMETERS)


def referring_address(referer: str):
    """The Referer header's parts; an unreadable one as no Referer at all."""
    try:
        return urlsplit(referer)
    except ValueError:
        return urlsplit("")


def arrival(args: Mapping, referer: str) -> tuple[Mapping, str, str]:
    """For a /sell page made without JavaScript's help: the parameters that brought the visitor
    (its own, or those of the page of this site that linked here), the landing page and the
    external referrer's host, as far as this one request can tell."""
    came_from = referring_address(referer)
    if came_from.hostname not in own_hosts():
        return args, "/sell", came_from.hostname or ""
    if carries_campaign(args):
        return args, "", ""
    previous = dict(parse_qsl(came_from.query))
    return (previous, came_from.path, "") if carries_campaign(previous) else ({}, "", "")


def page_fields(args: Mapping, referer: str, now: datetime) -> tuple[Mapping, dict[str, str]]:
    """The parameters the /sell page was reached with, and its attribution fields (checked as a
    post is), the click ids seen now."""
    params, landing, referrer = arrival(args, referer)
    sent = {
        "fbc": fbc_from_fbclid(params.get("fbclid", ""), now),
        **{key: params.get(key, "") for key in GOOGLE_CLICK_IDS},
        "google_click_seen": millis(now),
        "landing_page": landing,
        "referrer_host": referrer,
    }
    return params, clean_fields(sent, now)
