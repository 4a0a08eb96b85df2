"""Sample content (made-up testimonials, recent purchases, rating text) never reaches production by
accident; `flask content check` lists every sample and placeholder; testimonials stay unique and
within what the site's own terms promise."""

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from app.content.loader import seed
from tests.helpers import PRODUCTION, PRODUCTION_CONTACTS, ROOT, SITE

CONTENT = ROOT / "content"
PAGES_WITH_SAMPLES = ["/", "/sell-watch-boston", "/sell-rolex-watch"]


def page(app, path) -> str:
    response = app.test_client().get(path, base_url=SITE)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def section_tones(html: str) -> list[str]:
    """The background of each content section of <main>, in order (white or muted)."""
    main = html.split('<main id="main"', 1)[1].split("</main>", 1)[0]
    return re.findall(r'<section [^>]*class="bg-(white|ink-50)"', main)


def copy_content(tmp_path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(CONTENT, target)
    return target


def seed_into(make_app, tmp_path, content_dir, **config) -> Path:
    """Seed `content_dir` into a fresh database (with the given contact settings)."""
    db = tmp_path / "seeded.db"
    seed(make_app(CONTENT_DIR=str(content_dir), CONTENT_DB=str(db), **config))
    return db


def make_real(path: Path, marker: str) -> None:
    """Drop the sample flag from the entry whose text contains `marker`, as a real one."""
    text = path.read_text()
    start = text.index(marker)
    flag = text.index("sample = true\n", start)
    path.write_text(text[:flag] + text[flag + len("sample = true\n") :])


def all_testimonials() -> list[tuple[str, dict, dict]]:
    """(file, testimonial, the city it belongs to or None) for every testimonial of the site."""
    found = []
    home = tomllib.loads((CONTENT / "home.toml").read_text())
    found += [("home.toml", item, None) for item in home["testimonials"]["items"]]
    for folder in ("cities", "brands"):
        for path in sorted((CONTENT / folder).glob("*.toml")):
            record = tomllib.loads(path.read_text())
            city = record if folder == "cities" else None
            found += [(f"{folder}/{path.name}", item, city) for item in record["testimonials"]]
    return found


def cities_by_name() -> dict[str, dict]:
    records = [tomllib.loads(path.read_text()) for path in (CONTENT / "cities").glob("*.toml")]
    return {record["city"]: record for record in records}


# ---------------------------------------------------------------- what pages show


@pytest.mark.parametrize("path", PAGES_WITH_SAMPLES)
def test_samples_are_shown_in_development_and_testing(client, path):
    html = client.get(path).get_data(as_text=True)
    assert 'id="testimonials"' in html
    assert html.count("<figure") == (6 if path == "/" else 3)


@pytest.mark.parametrize("path", PAGES_WITH_SAMPLES)
def test_production_hides_sample_testimonials_and_their_section(make_app, path):
    html = page(make_app(**PRODUCTION), path)
    assert 'id="testimonials"' not in html
    assert "Sellers Say" not in html and "Sellers on Selling to Us" not in html
    assert "<figure" not in html
    assert "Priya S." not in html


def test_production_home_hides_the_rating_line_and_recent_purchases(make_app):
    html = page(make_app(**PRODUCTION), "/")
    assert "Rated 4.9" not in html
    assert "312 reviews" not in html
    assert 'id="recent-purchases"' not in html
    assert "Recently Purchased Watches" not in html
    assert "/static/img/art/purchase-" not in html


@pytest.mark.parametrize("path", PAGES_WITH_SAMPLES)
def test_sections_still_alternate_when_samples_are_hidden(make_app, path):
    tones = section_tones(page(make_app(**PRODUCTION), path))
    assert len(tones) >= 4
    assert all(a != b for a, b in zip(tones, tones[1:], strict=False)), tones


def test_production_shows_samples_only_when_the_setting_allows_it(make_app):
    html = page(make_app(**PRODUCTION, SHOW_SAMPLE_CONTENT=True), "/")
    assert "Rated 4.9 from 312 reviews" in html
    assert html.count("<figure") == 6
    assert 'id="recent-purchases"' in html


def test_production_shows_real_items_and_hides_only_the_samples(make_app, tmp_path):
    content = copy_content(tmp_path)
    make_real(content / "home.toml", 'name = "Emily W."')
    make_real(content / "home.toml", 'title = "Patek Philippe Calatrava"')
    make_real(content / "cities" / "boston.toml", 'name = "Paul D."')
    app = make_app(**PRODUCTION, CONTENT_DB=str(seed_into(make_app, tmp_path, content)))

    home = page(app, "/")
    assert home.count("<figure") == 1 and "Emily W." in home
    assert "What Our Sellers Say" in home and "Daniel K." not in home
    purchases = home.split('id="recent-purchases"')[1].split("</section>")[0]
    assert "Patek Philippe Calatrava" in purchases and "Rolex Datejust 41" not in purchases
    assert "/static/img/art/purchase-5" in purchases  # its own picture, not the first one's
    assert "Rated 4.9" not in home

    boston = page(app, "/sell-watch-boston")
    assert boston.count("<figure") == 1 and "Paul D." in boston


def test_a_shared_page_cache_never_serves_samples_to_production(make_app, redis_server):
    shared = {"REDIS_URL": redis_server.url}
    showing = make_app(**PRODUCTION, SHOW_SAMPLE_CONTENT=True, **shared)
    assert "Rated 4.9" in page(showing, "/")  # rendered and cached
    hiding = make_app(**PRODUCTION, **shared)
    assert "Rated 4.9" not in page(hiding, "/")


# ---------------------------------------------------------------- flask content check


def run_check(app):
    return app.test_cli_runner().invoke(args=["content", "check"])


def test_content_check_lists_every_sample_with_its_file_and_place(app):
    result = run_check(app)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    samples = [line for line in lines if line.startswith("sample ")]
    assert len(samples) == 66 + 6 + 1 + 35  # testimonials, purchases, rating, guide entries
    assert "sample       shown   home.toml hero.rating: Rated 4.9 from 312 reviews" in lines
    assert any("cities/boston.toml testimonials[2]: Paul D., Wellesley" in line for line in lines)
    assert any(
        "home.toml recent_purchases.items[5]: IWC Big Pilot's Watch" in line for line in lines
    )
    assert any("prices/samples.toml entries[34]: " in line for line in lines)
    assert lines[-1].startswith("108 samples and ")


def test_content_check_lists_the_placeholder_contact_details(app):
    output = run_check(app).output
    assert "placeholder  shown   SITE_EMAIL: offers@example.com" in output
    assert "placeholder  shown   SITE_PHONE: (212) 555-0147" in output
    assert "placeholder  shown   SITE_PHONE_E164: +12125550147" in output
    assert "SOCIAL_PROFILE_URL: https://www.instagram.com/ (a front page" in output


def test_content_check_finds_placeholders_written_into_content_files(make_app, tmp_path):
    content = copy_content(tmp_path)
    faq = content / "cities" / "boston.toml"
    faq.write_text(
        faq.read_text().replace(
            "[[faqs]]\nquestion",
            '[[faqs]]\nnote = "Write to boston@example.com or call 617-555-0123."\nquestion',
            1,
        )
    )
    app = make_app(CONTENT_DIR=str(content), CONTENT_DB=str(seed_into(make_app, tmp_path, content)))
    output = run_check(app).output
    assert "placeholder  shown   cities/boston.toml faqs[0].note: boston@example.com" in output
    assert "placeholder  shown   cities/boston.toml faqs[0].note: 617-555-0123" in output


def test_content_check_passes_in_production_when_samples_are_hidden(make_app, tmp_path):
    db = seed_into(make_app, tmp_path, CONTENT, **PRODUCTION_CONTACTS)
    result = run_check(make_app(**PRODUCTION, CONTENT_DB=str(db)))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sum(line.startswith("sample       hidden ") for line in lines) == 108
    assert not any(" shown " in line for line in lines[:-1])
    assert "0 shown with APP_ENV=production and SHOW_SAMPLE_CONTENT off." in lines[-1]


def test_content_check_fails_in_production_when_samples_would_be_shown(make_app, tmp_path):
    db = seed_into(make_app, tmp_path, CONTENT, **PRODUCTION_CONTACTS)
    result = run_check(make_app(**PRODUCTION, CONTENT_DB=str(db), SHOW_SAMPLE_CONTENT=True))
    assert result.exit_code == 1
    assert "sample       shown   home.toml testimonials.items[0]: Daniel K." in result.output
    assert "Error: production would show the items marked shown above" in result.output


def test_content_check_fails_in_production_on_a_database_seeded_with_placeholders(make_app):
    result = run_check(make_app(**PRODUCTION))  # seeded with the test defaults
    assert result.exit_code == 1
    assert "placeholder  shown   content.db: (212) 555-0147 in " in result.output
    assert "re-run `flask seed` with the real contact settings" in result.output


# ---------------------------------------------------------------- what testimonials say


def test_testimonial_names_are_unique_across_the_site():
    names = [item["name"] for _file, item, _city in all_testimonials()]
    assert len(names) == 66
    repeated = {name for name in names if names.count(name) > 1}
    assert not repeated


def test_every_testimonial_is_from_within_the_area_we_serve():
    """Appointments and collection reach 50 miles round the listed cities: a seller elsewhere
    could not have had the experience described. City pages name one of the city's areas;
    home and brand pages name an area and its city."""
    cities = cities_by_name()
    for file, item, city in all_testimonials():
        if city is not None:
            assert item["location"] in city["local_areas"], (file, item["location"])
            continue
        area, _, city_name = item["location"].rpartition(", ")
        assert city_name in cities, (file, item["location"])
        assert area in cities[city_name]["local_areas"], (file, item["location"])


# Promises the terms do not make (content/pages/terms.toml): a quote within 24 hours,
# authentication usually in 24 to 48 hours, payment sent on the day the seller accepts the final
# offer (arrival depends on the bank), no comparison with other buyers' prices.
UNPROMISED = [
    (r"to payment (in|took) (a|one|two|2|\d+) (day|days|hours?)\b", "form to payment in days"),
    (r"\bwithin \d+ (minutes?|hours?)\b", "a deadline in hours or minutes"),
    (
        r"\b(money|transfer|payment|funds)\b[^.]*\b(arrived|landed|cleared|reached)\b[^.]*"
        r"\b(same|that) (day|afternoon|evening|morning)\b",
        "funds arriving the same day",
    ),
    (r"\bpaid\b[^.]*\bday (it|the watch) was authenticated\b", "payment on authentication"),
    (r"\b(higher|more) than\b|\bbest (price|offer)\b|\bbeat\b", "a price comparison"),
]


@pytest.mark.parametrize("pattern, promise", UNPROMISED, ids=[p for _r, p in UNPROMISED])
def test_no_testimonial_promises_what_the_terms_do_not(pattern, promise):
    offending = [
        f"{file}: {item['name']}"
        for file, item, _city in all_testimonials()
        if re.search(pattern, item["text"], re.IGNORECASE)
    ]
    assert not offending, f"{promise}: {offending}"
