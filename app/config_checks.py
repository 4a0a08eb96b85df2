"""What production refuses to start with (the factory calls `check_production_settings` once
the settings are complete): a guessable secret, a site URL taken from requests, debug, contact
details that reach nobody, request limits each process counts alone, e-mail in clear, no
off-site replica, a market-data provider asked in clear, a sale by mail without what it needs,
and a payout by bank API without its key, account, webhook secret and limits. And what no
environment starts with (`check_secrets`, as soon as the settings are typed): a key, secret,
password or token holding a control character.
`flask content check` (app/content/samples.py) shares the placeholder tests."""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from urllib.parse import urlsplit

from app.config import DEV_SECRET_KEY, ConfigError

# Contact details reserved for examples: RFC 2606 domains and the 555-0100..0199 numbers that
# US numbering keeps for fiction. The defaults use them, so a local site never shows a stranger's.
EXAMPLE_DOMAIN = re.compile(r"(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$")
FICTIONAL_NUMBER = re.compile(r"55501\d\d$")


def is_example_email(address: str) -> bool:
    """An address on a domain reserved for examples (offers@example.com), or no domain at all."""
    domain = address.rpartition("@")[2].strip().lower()
    return not domain or bool(EXAMPLE_DOMAIN.search(domain))


def is_fictional_phone(number: str) -> bool:
    """A US number in 555-0100..0199, the range reserved for fiction: nobody answers it."""
    return bool(FICTIONAL_NUMBER.search("".join(char for char in number if char.isdigit())))


def placeholder_contacts(config) -> dict[str, str]:
    """The configured contact settings that still hold example values, by setting name."""
    found = {}
    if is_example_email(config.get("SITE_EMAIL", "")):
        found["SITE_EMAIL"] = config.get("SITE_EMAIL", "")
    for name in ("SITE_PHONE", "SITE_PHONE_E164"):
        if is_fictional_phone(config.get(name, "")):
            found[name] = config[name]
    return found


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
PER_PROCESS_LIMITS = (
    "REDIS_URL must be set: without it every process keeps its own request-limit counters, so "
    "each process multiplies every limit (set RATELIMIT_SINGLE_PROCESS=1 if the site really "
    "runs as one process)"
)


def mail_in_clear(config) -> bool:
    """Whether e-mail (status links, sellers' details, SMTP_PASSWORD) would cross a network
    unencrypted: TLS off for a relay that is not this machine."""
    host = config.get("SMTP_HOST", "")
    return bool(host) and not config.get("SMTP_USE_TLS") and host not in LOOPBACK_HOSTS


def limits_per_process(config) -> bool:
    """Whether request limits would be counted in this process's memory without anyone having
    said that one process is all there is."""
    in_memory = config.get("RATELIMIT_STORAGE_URI", "memory://").startswith("memory://")
    return in_memory and not config.get("RATELIMIT_SINGLE_PROCESS")


def market_data_in_clear(config) -> bool:
    """Whether the market-data provider (optional) would be asked over plain HTTP: its key
    goes with every question as a bearer token, readable by anyone on the way."""
    url = config.get("MARKET_DATA_URL") or ""
    return bool(url) and not url.startswith("https://")


def replica_problems(config) -> list[str]:
    """What production's off-site replica lacks: a bucket, and the key the storage encrypts
    with (a disk lost without them loses the records the law requires us to keep)."""
    url = config.get("REPLICA_URL") or ""
    if not url.startswith("s3://") or len(url) <= len("s3://"):
        return ["REPLICA_URL must name the off-site replica's bucket (s3://bucket/prefix)"]
    try:
        replica_key(config.get("REPLICA_ENCRYPTION_KEY") or "")
    except ValueError as error:
        return [f"{error} (the replica is stored encrypted with it)"]
    endpoint = config.get("REPLICA_ENDPOINT") or ""
    if endpoint and not endpoint.startswith("https://") and not is_loopback(endpoint):
        return ["REPLICA_ENDPOINT must be https:// (the encryption key travels with each request)"]
    return []


def replica_key(encoded: str) -> bytes:
    """REPLICA_ENCRYPTION_KEY's 32 bytes (base64, as Litestream reads it too); ValueError
    if it is not 32 bytes of base64."""
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("REPLICA_ENCRYPTION_KEY must be base64") from None
    if len(key) != 32:
        raise ValueError("REPLICA_ENCRYPTION_KEY must be 32 bytes (44 characters of base64)")
    return key


def is_loopback(url: str) -> bool:
    """Whether `url` points at this machine (a storage gateway on loopback)."""
    return (urlsplit(url).hostname or "") in ("127.0.0.1", "localhost", "::1")


# Words a label must not carry: the shipping policy wants nothing outside the box to say it
# holds a watch or jewellery.
TELLING_WORDS = re.compile(r"watch|jewel|rolex|patek|luxury|timepiece", re.IGNORECASE)
# MAILIN_RECEIVING_ADDRESS's parts, in order, separated by ";" (street2 may be empty).
ADDRESS_FIELDS = ("name", "street1", "street2", "city", "state", "zip", "phone")


def postal_address(text: str) -> dict[str, str]:
    """A "name; street 1; street 2; city; state; ZIP; phone" setting as its fields; ValueError
    unless it has all seven parts, each but street 2 filled in."""
    parts = [part.strip() for part in text.split(";")]
    if len(parts) != len(ADDRESS_FIELDS):
        raise ValueError(f"it has {len(parts)} parts separated by ';', not 7")
    fields = dict(zip(ADDRESS_FIELDS, parts, strict=True))
    if missing := [name for name, value in fields.items() if not value and name != "street2"]:
        raise ValueError(f"its {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} empty")
    return fields


def register_api_problems(config) -> list[str]:
    """What the stolen-watch register's API lacks, each setting named, once its URL is set:
    its key goes with every question, and its name goes into each check on record."""
    if not config.get("REGISTER_API_URL"):
        return []
    found = []
    if not config["REGISTER_API_URL"].startswith("https://"):
        found.append(
            "REGISTER_API_URL must be https:// (REGISTER_API_KEY goes with every question)"
        )
    for name, why in (
        ("REGISTER_API_KEY", "the register's key for our account"),
        ("REGISTER_PROVIDER_NAME", "the register's name, recorded with each check"),
    ):
        if not config.get(name):
            found.append(f"{name} must be set ({why})")
    return found


# EasyPost's keys say their mode in their first letters: EZTK for test, EZAK for production.
EASYPOST_TEST_KEY_PREFIX = "EZTK"


def mailin_problems(config) -> list[str]:
    """What the sale by mail lacks, each setting named, while MAILIN_ENABLED is on: without
    them a label cannot be bought, a parcel tracked, or the cover stated."""
    if not config.get("MAILIN_ENABLED"):
        return []
    needed = {
        "EASYPOST_API_KEY": "the label provider's key",
        "EASYPOST_WEBHOOK_SECRET": "the secret tracking events are signed with",
        "MAILIN_CARRIER_ACCOUNT": "the carrier account labels are bought on",
        "MAILIN_POLICY_REFERENCE": "the shipping insurance policy that covers the parcels",
    }
    found = [f"{name} must be set ({why})" for name, why in needed.items() if not config.get(name)]
    if (config.get("MAILIN_MAX_VALUE") or 0) <= 0:
        found.append("MAILIN_MAX_VALUE must be set to the policy's per-parcel limit in dollars")
    try:
        receiving = postal_address(config.get("MAILIN_RECEIVING_ADDRESS") or "")
    except ValueError as error:
        found.append(f"MAILIN_RECEIVING_ADDRESS must be the address parcels go to ({error})")
    else:
        if TELLING_WORDS.search(receiving["name"]):
            found.append(
                "MAILIN_RECEIVING_ADDRESS's name must not say what a parcel holds (the policy "
                "wants no word of watches or jewellery outside the box): use a plain one"
            )
    if not (config.get("EASYPOST_API_BASE") or "").startswith("https://"):
        found.append("EASYPOST_API_BASE must be https:// (the key goes with every request)")
    if (config.get("EASYPOST_API_KEY") or "").startswith(EASYPOST_TEST_KEY_PREFIX):
        found.append(
            "EASYPOST_API_KEY must be a production key: this one is a test key (EasyPost's test "
            "keys begin EZTK), whose labels no carrier takes and whose events are refused here"
        )
    # The arrival form takes 8 photos (app/staff/arrival_forms.py) and the video in one request.
    room = (config.get("MAX_CONTENT_LENGTH") or 0) - 8 * (config.get("PHOTO_MAX_BYTES") or 0)
    if (config.get("MAILIN_ARRIVAL_VIDEO_MAX_MB") or 0) * 1024 * 1024 > room:
        found.append(
            f"MAILIN_ARRIVAL_VIDEO_MAX_MB must leave the arrival form's 8 photos room within the "
            f"request limit: at most {max(room, 0) // (1024 * 1024)}"
        )
    return found


# The bank's test environment: its keys work only there, and its transfers move no money.
INCREASE_SANDBOX = "sandbox.increase.com"


def payout_problems(config) -> list[str]:
    """What the payout by bank API lacks, each setting named, while PAYOUT_PROVIDER is set:
    without them no transfer can be sent, limited or followed, and the key must not travel in
    clear."""
    if not config.get("PAYOUT_PROVIDER"):
        return []
    needed = {
        "INCREASE_API_KEY": "the bank API's key",
        "INCREASE_ACCOUNT_NUMBER_ID": "the business's account number payouts are sent from",
        "INCREASE_WEBHOOK_SECRET": "the secret the bank's events are signed with",
    }
    found = [f"{name} must be set ({why})" for name, why in needed.items() if not config.get(name)]
    for name, what in (("PAYOUT_MAX_AMOUNT", "per transfer"), ("PAYOUT_DAILY_LIMIT", "per day")):
        if (config.get(name) or 0) <= 0:
            found.append(f"{name} must be set to the most the business pays {what}, in dollars")
    base = config.get("INCREASE_API_BASE") or ""
    if not base.startswith("https://"):
        found.append("INCREASE_API_BASE must be https:// (the key goes with every request)")
    if urlsplit(base).hostname == INCREASE_SANDBOX:
        found.append(
            f"INCREASE_API_BASE must not be the bank's sandbox ({INCREASE_SANDBOX}), where no "
            "money moves: sellers would be told they were paid"
        )
    return found


# A setting is a secret when a word of its name says so (EASYPOST_API_KEY, SMTP_PASSWORD,
# META_CAPI_TOKEN, EASYPOST_WEBHOOK_SECRET_PREVIOUS...), so a new one is covered by its name.
SECRET_WORDS = frozenset({"KEY", "SECRET", "PASSWORD", "TOKEN"})
# Control characters, and the two Unicode line and paragraph separators some viewers break on.
BREAKING = ("Cc", "Zl", "Zp")


def holds_control_character(value) -> bool:
    """Whether a setting's text (or any text of its list) holds a control character."""
    texts = value if isinstance(value, tuple | list) else (value,)
    return any(
        unicodedata.category(char) in BREAKING
        for text in texts
        if isinstance(text, str)
        for char in text
    )


def check_secrets(config) -> None:
    """Refuse, in every environment, a secret holding a line break, tab or other control
    character (a copy from a file with its newline): a library quoting the header it refuses
    would carry the secret into an error's text, the timeline, a staff e-mail and the log. The
    refusal names each setting, never its value."""
    found = [
        name
        for name, value in config.items()
        if SECRET_WORDS & set(name.split("_")) and holds_control_character(value)
    ]
    if found:
        raise ConfigError(
            "Refusing to start: "
            + "; ".join(
                f"{name} holds a control character (a line break, a tab...): set it again "
                "without one"
                for name in found
            )
            + "."
        )


def check_production_settings(config) -> None:
    """Refuse to serve production with a guessable secret, a site URL taken from requests,
    debug on, contact details that reach nobody (the development defaults), or request limits
    that each process counts alone."""
    problems = []
    if not config.get("SECRET_KEY") or config["SECRET_KEY"] == DEV_SECRET_KEY:
        problems.append("SECRET_KEY must be set to a long random value")
    if not config.get("SITE_URL", "").startswith("https://"):
        problems.append("SITE_URL must be set to the site's public https:// address")
    if len(config.get("STAFF_TOTP_KEY") or "") < 32:
        problems.append("STAFF_TOTP_KEY must be set to a random value of 32+ characters")
    if not config.get("PURCHASE_DATA_KEY") or min(map(len, config["PURCHASE_DATA_KEY"])) < 32:
        problems.append("PURCHASE_DATA_KEY must be set to random values of 32+ characters")
    if not config.get("BUSINESS_LEGAL_NAME") or not config.get("BUSINESS_ADDRESS"):
        problems.append(
            "BUSINESS_LEGAL_NAME and BUSINESS_ADDRESS must be set: the bill of sale names the "
            "buyer by both"
        )
    if config.get("DEBUG"):
        problems.append("debug must be off: it shows code to anyone")
    for name, value in placeholder_contacts(config).items():
        problems.append(f"{name} is the placeholder {value!r}: set the business's real one")
    if limits_per_process(config):
        problems.append(PER_PROCESS_LIMITS)
    if mail_in_clear(config):
        problems.append("SMTP_USE_TLS must be on for a relay off this machine (SMTP_HOST)")
    if market_data_in_clear(config):
        problems.append(
            "MARKET_DATA_URL must be https:// (MARKET_DATA_API_KEY goes with every question)"
        )
    problems.extend(replica_problems(config))
    problems.extend(mailin_problems(config))
    problems.extend(register_api_problems(config))
    problems.extend(payout_problems(config))
    if problems:
        raise ConfigError("Refusing to start in production: " + "; ".join(problems) + ".")
