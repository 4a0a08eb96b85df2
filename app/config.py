"""Configuration: safe defaults for local use, environment variables for everything else.

Every setting can be given as an environment variable of the same name. `APP_ENV=production`
selects `ProductionConfig`, which refuses to start without a real SECRET_KEY and SITE_URL, or
with the placeholder contact details the defaults use (app/config_checks.py says what else).
Settings are typed once, here, after every layer is applied (text from the environment or a
test becomes the type of the class default), so no code elsewhere parses a setting; those that
follow from others are completed by app/config_derived.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DEV_SECRET_KEY = "dev-only-not-secret"
ROOT = Path(__file__).resolve().parent.parent


class ConfigError(RuntimeError):
    """The configuration cannot run the site safely."""


class Config:
    """The defaults every environment starts from: safe locally, with placeholder contacts."""

    SECRET_KEY = DEV_SECRET_KEY
    SITE_URL = "http://127.0.0.1:5000"
    SITE_NAME = "US Watch Buyers"
    SITE_PHONE = "(212) 555-0147"
    SITE_PHONE_E164 = "+12125550147"
    SITE_EMAIL = "offers@example.com"
    SOCIAL_PROFILE_URL = "https://www.instagram.com/"
    # Items marked `sample = true` in content/ (made-up testimonials, recent purchases, rating
    # text) are shown only where this is on: never in production unless set explicitly.
    SHOW_SAMPLE_CONTENT = True
    REDIS_URL = ""
    CONTENT_DIR = str(ROOT / "content")
    CONTENT_DB = ""  # default: <instance>/content.db
    LEADS_DB = ""  # default: <instance>/leads.db
    PAGES_DIR = ""  # default: <instance>/pages (flask freeze)
    ISLANDS_MANIFEST = str(ROOT / "app" / "static" / "build" / "manifest.json")
    ISLANDS_SERVER_BUNDLE = str(ROOT / "app" / "build" / "ssr.js")
    CACHE_DEFAULT_TIMEOUT = 3600
    WTF_CSRF_TIME_LIMIT = None
    # No Referer check on HTTPS posts: the status pages send no Referer (so a seller's link never
    # leaves in one), and browsers then send none to the site either. The token, the `__Host-`
    # cookie and the Sec-Fetch-Site check (app/security/cross_site.py) do that work.
    WTF_CSRF_SSL_STRICT = False
    # The session cookie carries the CSRF secret (production adds Secure and __Host-).
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    # The sell form and its lead pipeline (app/sell, app/leads, worker/).
    PHOTO_MAX_COUNT = 10
    PHOTO_MAX_BYTES = 10 * 1024 * 1024
    PHOTO_MAX_PIXELS = 50_000_000  # refused before decoding (decompression bombs)
    MAX_CONTENT_LENGTH = PHOTO_MAX_COUNT * PHOTO_MAX_BYTES + 1024 * 1024
    PHOTO_STORAGE_DIR = ""  # default: storage/ beside LEADS_DB
    BACKUP_DIR = ""  # `flask leads backup`; default: backups/ beside LEADS_DB
    BACKUP_KEEP_DAYS = 30  # ... after each backup, older ones are removed (never the newest)
    # The off-site replica (app/replica/, docs/durability.md): leads.db by Litestream and every
    # private file by the job that writes it, into one S3-compatible bucket, s3://bucket/prefix
    # (off while empty; production requires it). The storage encrypts with
    # REPLICA_ENCRYPTION_KEY (base64 of 32 random bytes, SSE-C), which it never keeps.
    REPLICA_URL = ""
    REPLICA_ENDPOINT = ""  # an S3-compatible service's https:// URL; empty for AWS S3
    REPLICA_REGION = "us-east-1"
    REPLICA_ACCESS_KEY_ID = ""  # empty: boto3's and Litestream's usual sources (an IAM role)
    REPLICA_SECRET_ACCESS_KEY = ""
    REPLICA_ENCRYPTION_KEY = ""
    # Litestream's snapshots, and the bucket's noncurrent versions (an overwritten or deleted
    # object), are kept this long: what the privacy policy says of erased data follows from it.
    REPLICA_RETENTION_DAYS = 7
    REPLICA_LAG_ALERT_SECONDS = 120  # staff are e-mailed when the replica is this far behind
    REPLICA_COPY_ALERT_ATTEMPTS = 3  # ... or when a file's copy has failed this many times
    SELL_RATELIMIT = "5 per minute;30 per hour"
    # The instant range as the seller types, per client: enough for a seller, not for reading
    # the whole guide; staff hear when all clients together pass the daily figure.
    SELL_RANGE_RATELIMIT = "60 per minute;300 per day"
    SELL_RANGE_ALERT_PER_DAY = 3000
    RATELIMIT_HEADERS_ENABLED = True  # X-RateLimit-* on limited answers, Retry-After on a 429
    STATUS_LINK_RATELIMIT = "3 per minute;10 per hour"  # the lost-link form, per client address
    STATUS_LINK_EMAIL_RATELIMIT = "3 per hour"  # ... and per e-mail address asked for
    STATUS_ACTION_RATELIMIT = "10 per minute;40 per hour"  # questions and photos, per client
    STATUS_ACTION_LEAD_RATELIMIT = "20 per hour;60 per day"  # ... and per lead, every client
    # Without REDIS_URL each process counts the limits in its own memory: production refuses
    # that unless this says the site runs as one process.
    RATELIMIT_SINGLE_PROCESS = False
    REDIS_SOCKET_TIMEOUT = 2.0  # one try each (app/redis_guard.py)
    JOB_RETRY_INTERVALS = (10, 60, 300)
    JOB_SWEEP_SECONDS = 120  # without Redis, each process finds owed work again this often
    # The health check (app/health/) e-mails staff when work is owed this long, or when a disk
    # the site writes to has less than this share free.
    OWED_WORK_ALERT_MINUTES = 15
    DISK_FREE_ALERT_PERCENT = 10.0
    STAFF_EMAIL = ""
    MAIL_FROM = "leads@localhost"
    SMTP_HOST = ""
    SMTP_PORT = 587
    SMTP_USER = ""
    SMTP_PASSWORD = ""
    SMTP_USE_TLS = True
    # Where the business is: appointment dates and times staff enter are in this time zone.
    BUSINESS_TIMEZONE = "America/New_York"
    # When the business day ends there (24-hour HH:MM): the site promises payment the same day
    # the final offer is accepted, so a signed sale still unpaid by then alerts staff.
    BUSINESS_DAY_ENDS = "17:00"
    # The buyer as the bill of sale names it: the business's legal name and postal address
    # (its lines separated by ";"). Required in production; elsewhere the site's name alone.
    BUSINESS_LEGAL_NAME = ""
    BUSINESS_ADDRESS = ""
    META_PIXEL_ID = ""
    META_CAPI_TOKEN = ""
    META_CAPI_URL = "https://graph.facebook.com/v21.0/{pixel_id}/events"
    GA4_MEASUREMENT_ID = ""
    GA4_API_SECRET = ""
    GA4_API_URL = "https://www.google-analytics.com/mp/collect"
    # Purchases reported back (app/conversions/, app/conversions/send.py): the value is the price
    # paid, or `margin`: CONVERSION_MARGIN_PERCENT of it; the Google Ads file's conversion name.
    CONVERSION_VALUE = "price"
    CONVERSION_MARGIN_PERCENT = 15.0
    GOOGLE_ADS_CONVERSION_NAME = "Purchase"
    # app/security/headers.py: hosts answered (comma-separated; production: SITE_URL's host),
    # how many proxies' X-Forwarded-* to trust, and HSTS (production only: HTTPS there).
    TRUSTED_HOSTS: tuple[str, ...] = ()
    PROXY_FIX_X_FOR = 0
    PROXY_FIX_X_PROTO = 0
    PROXY_FIX_X_HOST = 0
    PROXY_FIX_X_PORT = 0
    PROXY_FIX_X_PREFIX = 0
    HSTS_MAX_AGE = 0
    # The staff area (app/staff): key material for the TOTP secrets at rest (required in
    # production; elsewhere derived from SECRET_KEY), session timeouts, how recent a sign-in
    # must be for export and erasure, and how long an enrolment link lives.
    STAFF_TOTP_KEY = ""
    STAFF_SESSION_IDLE_MINUTES = 30
    STAFF_SESSION_MAX_HOURS = 12
    STAFF_REAUTH_MINUTES = 5
    STAFF_ENROL_HOURS = 24
    STAFF_PASSWORD_PROFILE = "RFC_9106_LOW_MEMORY"  # argon2-cffi profile: argon2id, 64 MiB, t=3
    # The purchase on record (app/sale/purchase/): key material for the seller's ID and bank details
    # at rest (comma-separated, newest first, so an old key still reads while rows are rotated
    # to the new one; required in production, elsewhere derived from SECRET_KEY), the hold
    # before a bought watch may be resold, and how long each kind of record is kept.
    PURCHASE_DATA_KEY: tuple[str, ...] = ()
    PURCHASE_HOLD_DAYS = 15
    PURCHASE_RETENTION_YEARS = 7  # as the privacy policy says
    PAYOUT_DETAILS_DAYS = 30  # bank details, counted from the payment
    PAPERWORK_DRAFT_HOURS = 24  # what a refused paperwork got right, kept for the next try
    PRICE_GUIDE_STALE_DAYS = 90  # a guide range set longer ago is never shown to a seller
    # The home page promises an instant valuation once each of these brands (those with brand
    # pages) has at least this many fresh guide entries.
    INSTANT_VALUATION_BRANDS: tuple[str, ...] = (
        "Rolex", "Patek Philippe", "Audemars Piguet", "Richard Mille", "Vacheron Constantin",
        "F.P. Journe", "Cartier",
    )  # fmt: skip
    INSTANT_VALUATION_MIN_ENTRIES = 5
    # An optional market-data provider (a WatchCharts-style price API), off while the URL is
    # empty: GET <URL>?brand=&reference= with the key as a bearer token, answering {"price": n}.
    MARKET_DATA_URL = ""
    MARKET_DATA_API_KEY = ""
    MARKET_DATA_TIMEOUT = 5.0  # seconds per question
    MARKET_DATA_DEADLINE = 1800.0  # seconds for the whole run; references left are not asked
    MARKET_DRIFT_PERCENT = 25  # the guide's mid-range this far from the market is flagged
    LEAD_RETENTION_MONTHS = 24  # leads that never became purchases, from their last activity
    # The sale by mail (app/shipping/, docs/shipping.md), off unless set. The cover is the
    # business's own high-value shipping policy (MAILIN_POLICY_REFERENCE), whose per-parcel
    # limit is MAILIN_MAX_VALUE dollars; labels are bought from EasyPost on the carrier account
    # MAILIN_CARRIER_ACCOUNT, addressed to MAILIN_RECEIVING_ADDRESS ("name; street 1; street 2;
    # city; state; ZIP; phone", street 2 may be empty); unused labels are refunded after
    # MAILIN_LABEL_VOID_DAYS. The webhook is verified with the current secret or the previous
    # one (during a rotation). A label's PDF comes only from EASYPOST_FILE_HOSTS (label_files.py).
    MAILIN_ENABLED = False
    MAILIN_MAX_VALUE = 0
    MAILIN_POLICY_REFERENCE = ""
    MAILIN_CARRIER_ACCOUNT = ""
    MAILIN_SERVICE = ""  # the carrier service to buy; empty: the account's cheapest rate
    MAILIN_RECEIVING_ADDRESS = ""
    MAILIN_LABEL_VOID_DAYS = 14
    MAILIN_PICKUPS = False  # a carrier pickup at the door, if the policy accepts it (pickups.py)
    # A parcel opened on record (shipping/arrival.py) matches the carrier's measured weight (else
    # the label's) within this many ounces; its optional video is at most this many MB.
    MAILIN_WEIGHT_TOLERANCE_OZ = 2.0
    MAILIN_ARRIVAL_VIDEO_MAX_MB = 20
    EASYPOST_API_KEY = ""
    EASYPOST_API_BASE = "https://api.easypost.com/v2"
    EASYPOST_TIMEOUT = 20  # seconds per request
    EASYPOST_WEBHOOK_SECRET = ""
    EASYPOST_WEBHOOK_SECRET_PREVIOUS = ""
    EASYPOST_WEBHOOK_MAX_BYTES = 256 * 1024  # a tracker event is a few KB
    EASYPOST_FILE_HOSTS = ("easypost-files.s3.us-west-2.amazonaws.com",
                           "easypost-files.s3-us-west-2.amazonaws.com")  # fmt: skip
    EASYPOST_LABEL_MAX_BYTES = 4 * 1024 * 1024  # a 4x6 label's PDF is tens of KB
    # The stolen-watch register asked by API (app/sale/purchase/register_api.py, docs/sale.md),
    # off while the URL is empty: staff then record each check by hand, as always. A clear
    # check older than REGISTER_CHECK_MAX_AGE_DAYS is asked again before the watch is bought.
    REGISTER_API_URL = ""
    REGISTER_API_KEY = ""
    REGISTER_PROVIDER_NAME = ""
    REGISTER_API_TIMEOUT = 10.0  # seconds per question
    REGISTER_CHECK_MAX_AGE_DAYS = 30
    # The payout (app/payouts/, docs/payouts.md). Unset: staff pay from the bank's own site and
    # record the payment, as always. "increase": the site sends it through the business's bank
    # API (Increase), asked by one staff member and released once another approves it, within
    # PAYOUT_MAX_AMOUNT per transfer and PAYOUT_DAILY_LIMIT per business day (whole dollars; 0
    # refuses every payout). A seller whose bank takes no instant payment is paid by same-day
    # ACH, or by wire above PAYOUT_WIRE_ABOVE dollars (0: never a wire).
    PAYOUT_PROVIDER = ""
    PAYOUT_MAX_AMOUNT = 0
    PAYOUT_DAILY_LIMIT = 0
    PAYOUT_WIRE_ABOVE = 0
    PAYOUT_APPROVAL_ALERT_MINUTES = 15  # staff are e-mailed when an ask waits this long
    INCREASE_API_KEY = ""
    INCREASE_API_BASE = "https://api.increase.com"
    INCREASE_ACCOUNT_NUMBER_ID = ""  # the business's account number payouts are sent from
    INCREASE_TIMEOUT = 20.0  # seconds per request
    INCREASE_WEBHOOK_SECRET = ""
    INCREASE_WEBHOOK_SECRET_PREVIOUS = ""  # while a rotation is under way
    INCREASE_WEBHOOK_MAX_BYTES = 64 * 1024  # an event names its object; it is well under 1 KB


class DevelopmentConfig(Config):
    """Local development: the defaults as they are."""

    ENV_NAME = "development"


class TestingConfig(Config):
    """The test suite: rate limits off and the cheapest argon2id password profile."""

    ENV_NAME = "testing"
    TESTING = True
    RATELIMIT_ENABLED = False  # tests that check the limit turn it on
    STAFF_PASSWORD_PROFILE = "CHEAPEST"  # still argon2id; ~1 s per hash on a busy test box
    # No in-process retries: a test's app outlives the test, and a retry would run against the
    # next test's database. Tests of retries set their own.
    JOB_RETRY_INTERVALS = ()
    JOB_SWEEP_SECONDS = 0  # ... nor sweeps after the first, for the same reason


class ProductionConfig(Config):
    """The live site: no defaults for SECRET_KEY and SITE_URL, secure cookies, one proxy, HSTS."""

    ENV_NAME = "production"
    SECRET_KEY = ""
    SITE_URL = ""
    SHOW_SAMPLE_CONTENT = False
    SESSION_COOKIE_SECURE = True
    SESSION_COOKIE_NAME = "__Host-session"  # browsers take it only over HTTPS, host-wide
    SESSION_COOKIE_DOMAIN = None
    SESSION_COOKIE_PATH = "/"
    DEBUG = False
    PROXY_FIX_X_FOR = 1  # the documented set-up: one reverse proxy (nginx) in front of gunicorn
    PROXY_FIX_X_PROTO = 1
    HSTS_MAX_AGE = 63072000  # two years, as hstspreload.org asks


CONFIGS = {
    "development": DevelopmentConfig,
    "testing": TestingConfig,
    "production": ProductionConfig,
}

# Settings fixed in code (limits the spec sets, or what follows from others): every other
# setting of Config may come from the environment.
FIXED_SETTINGS = frozenset({
    "CACHE_DEFAULT_TIMEOUT", "MAX_CONTENT_LENGTH", "PHOTO_MAX_BYTES", "PHOTO_MAX_COUNT",
    "PHOTO_MAX_PIXELS", "REDIS_SOCKET_TIMEOUT", "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE", "WTF_CSRF_SSL_STRICT", "WTF_CSRF_TIME_LIMIT",
})  # fmt: skip
ENV_SETTINGS = tuple(name for name in vars(Config) if name.isupper() and name not in FIXED_SETTINGS)


def config_class(env_name: str | None = None) -> type[Config]:
    """Pick the config class named by APP_ENV (development when unset)."""
    name = env_name or os.environ.get("APP_ENV", "development")
    try:
        return CONFIGS[name]
    except KeyError:
        raise ConfigError(f"APP_ENV={name!r} is not one of {', '.join(CONFIGS)}.") from None


def settings_from_environment() -> dict[str, str]:
    """The settings the environment overrides, by their own names."""
    return {key: os.environ[key] for key in ENV_SETTINGS if os.environ.get(key)}


FALSE_WORDS = ("", "0", "false", "no", "off")


def typed_value(key: str, value, default):
    """`value` in the type of `default`: bools from words, numbers, comma-separated lists."""
    if not isinstance(value, str) or isinstance(default, str) or default is None:
        return value
    try:
        if isinstance(default, bool):
            return value.strip().lower() not in FALSE_WORDS
        if isinstance(default, tuple):
            item_type = type(default[0]) if default else str
            return tuple(item_type(item.strip()) for item in value.split(",") if item.strip())
        return type(default)(value)
    except ValueError:
        raise ConfigError(f"{key}={value!r} is not a valid {type(default).__name__}.") from None


# Settings that take one of a few words, settings that are a share of something (0-100), and
# settings that are a time of day on a 24-hour clock.
CHOICES = {"CONVERSION_VALUE": ("price", "margin"), "PAYOUT_PROVIDER": ("", "increase")}
PERCENTAGES = ("CONVERSION_MARGIN_PERCENT", "DISK_FREE_ALERT_PERCENT")
CLOCK_TIMES = ("BUSINESS_DAY_ENDS",)
CLOCK_TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def checked_value(key: str, value):
    """`value`, unless it is not one of the setting's words, not a percentage between 0 and
    100, or not a time of day (HH:MM) where one is asked for."""
    if key in CHOICES and value not in CHOICES[key]:
        words = ", ".join(choice or "empty" for choice in CHOICES[key])
        raise ConfigError(f"{key}={value!r} is not one of {words}.")
    if key in PERCENTAGES and not 0 <= value <= 100:
        raise ConfigError(f"{key}={value!r} is not a percentage between 0 and 100.")
    if key in CLOCK_TIMES and not CLOCK_TIME.fullmatch(value):
        raise ConfigError(f"{key}={value!r} is not a time of day on a 24-hour clock (HH:MM).")
    return value


def typed_settings(config) -> dict:
    """Every known setting given as text, converted to the type of its default in Config (an
    environment's class may set a list empty, as TestingConfig's retries)."""
    return {
        key: checked_value(key, typed_value(key, config[key], getattr(Config, key)))
        for key in ENV_SETTINGS
        if key in config and hasattr(Config, key)
    }
