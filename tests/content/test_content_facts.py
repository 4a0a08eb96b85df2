"""The facts a seller acts on say the same thing on every page.

Payment timing, authentication time, who gets insured collection, price claims and the photo
formats each have one answer (content/README.md, "One answer per question"). These tests read the
seeded content database and the rendered pages, so an edit that brings back a contradicting
variant fails here. Testimonials are a seller's own words, not our claims, and are left out.
"""

import io
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from app.config import Config
from app.content import queries
from app.photos.uploads import EXTENSIONS
from app.privacy.choice import COOKIE_SECONDS
from app.replica import monitor
from app.sale import erasure
from app.sale.purchase.record import SEALED_COLUMNS
from tests.helpers import JSON, page_html, post

NOT_OUR_CLAIMS = {"testimonials", "rating_text"}
PAID_ON_ACCEPTANCE = "the day you accept the final offer"
FORMATS = "PNG, JPEG, WebP or HEIC"
FORMAT_NAMES = {"png": "PNG", "jpeg": "JPEG", "webp": "WebP", "heif": "HEIC"}

FORBIDDEN = {
    "payment within minutes": r"within 30 minutes",
    "payment hedged": r"(often|normally|usually) (on )?the same day",
    "funds within 24 hours": (
        r"(funds|money|transfer|it) (usually |typically |normally )?"
        r"(land|arriv|reach|show|clear)\w*[^.]{0,30}within 24 hours"
    ),
    "paid on the day of authentication": (
        r"day (as authentication|(your |the |my )?(watch|watches|it) (is|was|are|were) "
        r"authenticated|our (certified )?watchmakers (complete|finish))"
    ),
    "a 24-hour authentication": r"24 ?hrs?\b|24-hour authentication",
    "15-point authentication": r"15-point|fifteen-point",
    "an instant valuation": r"instant (valuation|quote|offer)",
    # True only while the bank's API sends the payouts: said in `payouts_` variants alone.
    "instant payment": r"instant payment",
    "insured collection anywhere": (
        r"collection (everywhere|anywhere)(?! within)|collection if you are outside"
    ),
}


PAYOUTS = "payouts_"  # a variant shown only while the bank's API sends payouts (as_configured)


def strings(value, where=""):
    """Every string in a nested content record with where it sits, skipping others' words.

    A record of strings only (a figure and its label, say) is read as one text.
    """
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict) and all(isinstance(item, str) for item in value.values()):
        ours = {k: v for k, v in value.items() if k not in NOT_OUR_CLAIMS}
        yield where, " ".join(v for k, v in ours.items() if not k.startswith(PAYOUTS))
        for key in (k for k in ours if k.startswith(PAYOUTS)):
            yield f"{where}.{key}", ours[key]
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from strings(item, f"{where}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_OUR_CLAIMS:
                yield from strings(item, f"{where}.{key}")


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def content(app) -> list[tuple[str, str]]:
    """(where, text) for every seeded string the site shows as its own claim."""
    with app.app_context():
        names = queries.document_dates()
        records = {f"document {name}": queries.document(name) for name in names}
        records |= {f"city {city['key']}": city for city in queries.cities()}
        records |= {f"brand {brand['key']}": brand for brand in queries.brands()}
        records |= {f"article {a['slug']}": a for a in queries.articles()}
    return [
        (label + where, text_of(text))
        for label, record in records.items()
        for where, text in strings(record)
    ]


class TextOutsideLinks(HTMLParser):
    """The visible text of a page, with what sits inside <a> and <script> left out."""

    def __init__(self):
        super().__init__()
        self.depth = {"a": 0, "script": 0, "style": 0}
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.depth:
            self.depth[tag] += 1

    def handle_endtag(self, tag):
        if tag in self.depth:
            self.depth[tag] -= 1

    def handle_data(self, data):
        if not any(self.depth.values()):
            self.parts.append(data)


def unlinked_text(html: str) -> str:
    parser = TextOutsideLinks()
    parser.feed(html)
    return " ".join(parser.parts)


@pytest.fixture
def pages(app, client) -> dict[str, str]:
    """Every public content page, rendered."""
    with app.app_context():
        paths = ["/", "/sell", "/watch-authentication", "/terms", "/blog"]
        paths += [f"/sell-watch-{city['key']}" for city in queries.cities()]
        paths += [f"/{brand['url_slug']}" for brand in queries.brands()]
        paths += [f"/blog/{article['slug']}" for article in queries.articles()]
    return {path: client.get(path).get_data(as_text=True) for path in paths}


@pytest.mark.parametrize("variant", FORBIDDEN)
def test_no_seeded_text_repeats_a_retired_variant(content, variant):
    pattern = re.compile(FORBIDDEN[variant], re.IGNORECASE)
    found = [
        f"{where}: {match.group(0)!r}"
        for where, text in content
        for match in [pattern.search(text)]
        if match and not (variant == "instant payment" and f".{PAYOUTS}" in where)
    ]
    assert not found, f"{variant} still appears: " + "; ".join(found)


def test_rendered_pages_offer_no_instant_valuation_or_24hr_band(pages):
    pattern = re.compile(
        "|".join(
            FORBIDDEN[key]
            for key in (
                "an instant valuation",
                "instant payment",
                "a 24-hour authentication",
                "payment hedged",
            )  # fmt: skip
        ),
        re.IGNORECASE,
    )
    found = {
        path: match.group(0)
        for path, html in pages.items()
        for match in [pattern.search(text_of(html))]
        if match
    }
    assert found == {}


def test_payment_is_promised_on_the_day_the_offer_is_accepted(app, pages):
    with app.app_context():
        home = queries.document("home")
        terms = queries.document("page:terms")
        landing = queries.document("landing")
    paid = next(item for item in home["faq"]["items"] if "paid" in item["question"])
    payment_terms = next(s for s in terms["sections"] if s["heading"] == "Payment Terms")
    for text in (
        paid["answer"],
        payment_terms["body"],
        landing["brand_steps"][2]["text"],
        text_of(pages["/sell"]),
    ):
        assert PAID_ON_ACCEPTANCE in text


def test_brand_pages_state_authentication_takes_24_to_48_hours(pages):
    for path, html in pages.items():
        if path.startswith("/sell-") and path.endswith("-watch"):
            band = text_of(html.split('id="how-it-works"')[1].split("</section>")[0])
            assert "24-48h" in band, path


def test_every_price_claim_names_what_it_is_compared_with(content):
    bases = {
        r"20-35%": r"general dealers?",
        r"85%?\s*(-|to|and)\s*92%": r"current secondary-market value",
        r"70%?\s*(-|to)\s*90% of (their |its )?retail": r"above retail",
    }
    missing = [
        where
        for where, text in content
        for claim, basis in bases.items()
        if re.search(claim, text) and not re.search(basis, text)
    ]
    assert missing == []


def test_city_faqs_link_the_sell_page_rather_than_print_it(pages):
    printed = {
        path
        for path, html in pages.items()
        if re.search(r"(?<![\w-])/sell\b(?!-)", unlinked_text(html))
    }
    assert printed == set()


def test_photo_hint_picker_and_refusal_name_the_formats_the_server_accepts(client):
    assert {FORMAT_NAMES[kind] for kind in EXTENSIONS} == {"PNG", "JPEG", "WebP", "HEIC"}
    html = page_html(client)
    hint = re.search(r'id="photos-hint"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert text_of(hint).startswith(f"{FORMATS} up to 10MB each")
    accept = set(re.search(r'id="field-photos"[^>]*accept="([^"]+)"', html).group(1).split(","))
    assert {"image/png", "image/jpeg", "image/webp", "image/heic"} <= accept

    notes = (io.BytesIO(b"not a photo\n" * 20), "notes.txt")
    response = post(client, photos=[notes], headers=JSON)
    assert response.get_json()["errors"]["photos"] == f"notes.txt is not a {FORMATS} photo."


OPT_OUT_PROMISES = (
    "global privacy control",
    "the meta pixel and the google tag do not load in your browser",
    "never reports anything about it to meta or google",
    "if we buy your watch",
)


def test_privacy_policy_promises_the_opt_out_the_site_gives(app, client):
    with app.app_context():
        sections = queries.document("page:privacy")["sections"]
    policy = unescape(text_of(" ".join(section["body"] for section in sections))).lower()
    choices = client.get("/privacy-choices")
    assert choices.status_code == 200
    page = unescape(text_of(choices.get_data(as_text=True))).lower()
    for promise in OPT_OUT_PROMISES:
        assert promise in policy and promise in page, promise
    footer = client.get("/").get_data(as_text=True).split("<footer")[1]
    label = re.search(r'<a href="/privacy-choices"[^>]*>([^<]+)</a>', footer).group(1)
    assert f"\u201c{label.lower()}\u201d" in policy  # the footer's words, quoted
    assert COOKIE_SECONDS == 365 * 24 * 3600 and "for one year" in policy
    # The old offer had no way to act on it; the choices page is that way now.
    assert "use of your information for targeted advertising" not in policy


def page_words(app, name: str) -> str:
    """A content page's sections as plain text, lower case."""
    with app.app_context():
        sections = queries.document(name)["sections"]
    return unescape(text_of(" ".join(section["body"] for section in sections))).lower()


def test_privacy_policy_and_terms_state_the_retention_the_settings_apply(app):
    policy, terms = page_words(app, "page:privacy"), page_words(app, "page:terms")
    promises = {
        "bank details": f"deleted {Config.PAYOUT_DETAILS_DAYS} days after we pay you",
        "purchase records": f"for {Config.PURCHASE_RETENTION_YEARS} years from the payment",
        "the hold": f"for {Config.PURCHASE_HOLD_DAYS} days after payment before we resell it",
        "enquiries": f"after {Config.LEAD_RETENTION_MONTHS} months without activity",
    }
    for what, words in promises.items():
        assert words in policy, what
    assert promises["the hold"] in terms
    assert "about 7 years" not in policy  # the old, vaguer promise
    # What the policy says is encrypted is what the purchase record encrypts.
    assert set(SEALED_COLUMNS) == {
        "birth_date_enc",
        "id_number_enc",
        "routing_number_enc",
        "account_number_enc",
    }
    assert "your date of birth, your id number and your bank details are encrypted" in policy
    assert "photos of your id are stored encrypted" in policy


def test_privacy_policy_says_what_a_sellers_erasure_after_a_sale_deletes_and_keeps(app):
    policy = page_words(app, "page:privacy")
    assert erasure.SALE_GOES.lower().replace("e-mail", "email") in policy  # each page's spelling
    for kept in ("your name, address and date of birth", "the stolen-watch register check"):
        assert kept in erasure.SALE_KEPT.lower() and kept in policy
    why = "second-hand dealer laws and tax rules require us to keep"
    assert why in policy and why in erasure.SALE_KEPT.lower()


def test_privacy_policy_bounds_how_long_erased_data_stays_in_the_recovery_copies(app):
    policy = page_words(app, "page:privacy")
    days = monitor.erased_within_days(app.config)
    assert days == 30  # the nightly backups' 30 days; the replica's 2 x 7 + 1 fit inside them
    assert f"it is also gone from these copies within {days} days" in policy
    assert "encrypted with a key that only we hold" in policy
