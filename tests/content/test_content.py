"""flask seed: content/ into content.db, deterministic, tokens filled, article HTML cleaned."""

import shutil
import sqlite3

import pytest

from app.content import queries
from app.content.loader import ContentError, link_answers, read_article, seed
from app.extensions import cache
from tests.helpers import ROOT, free_port

CONTENT = ROOT / "content"


def dump(path) -> list[str]:
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


@pytest.fixture
def seeding_app(make_app, tmp_path):
    """Apps whose content database is this test's own, for tests that seed."""

    def make(content_dir=CONTENT, **config):
        content_db = str(tmp_path / "content.db")
        return make_app(CONTENT_DIR=str(content_dir), CONTENT_DB=content_db, **config)

    return make


def test_seeding_twice_gives_the_same_database(seeding_app, tmp_path):
    app = seeding_app()
    seed(app)
    first = dump(tmp_path / "content.db")
    seed(app)
    assert dump(tmp_path / "content.db") == first


def test_seed_command_reports_what_it_loaded(seeding_app, tmp_path):
    result = seeding_app().test_cli_runner().invoke(args=["seed"])
    assert result.exit_code == 0, result.output
    assert "13 cities, 7 brands, 8 articles" in result.output


def test_seed_fills_configured_name_phone_and_email(seeding_app, tmp_path):
    app = seeding_app(SITE_NAME="Acme Watches", SITE_PHONE="(555) 000-1111")
    seed(app)
    text = "\n".join(dump(tmp_path / "content.db"))
    for token in ("{site_name}", "{phone}", "{email}"):
        assert token not in text
    assert "Acme Watches" in text
    assert "US Watch Buyers" not in text


def test_seed_command_clears_the_page_cache(seeding_app, tmp_path):
    app = seeding_app()
    with app.app_context():
        cache.set("page:/", "stale")
    assert app.test_cli_runner().invoke(args=["seed"]).exit_code == 0
    with app.app_context():
        assert cache.get("page:/") is None


def test_seed_command_seeds_when_redis_does_not_answer(seeding_app, tmp_path):
    app = seeding_app(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    result = app.test_cli_runner().invoke(args=["seed"])
    assert result.exit_code == 0, result.output
    assert "13 cities, 7 brands, 8 articles" in result.output
    assert "The page cache (Redis) could not be cleared" in result.output
    assert "No page of the old content is served" in result.output
    with sqlite3.connect(tmp_path / "content.db") as db:
        assert db.execute("SELECT count(*) FROM cities").fetchone()[0] == 13


def test_seed_swaps_in_a_new_file_leaving_no_temporary_files(seeding_app, tmp_path):
    app = seeding_app()
    seed(app)
    seed(app)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content.db"]


def test_article_html_is_sanitised_at_seed_time(tmp_path):
    article = tmp_path / "bad-article.html"
    article.write_text(
        '+++\ntitle = "T"\nexcerpt = "E"\nauthor = "A"\npublished = 2025-01-01\n'
        'category = "Education"\n+++\n'
        '<p onclick="steal()">Hello <script>alert(1)</script><a href="javascript:x()">x</a></p>'
    )
    body = read_article(article)["body_html"]
    assert "<script" not in body
    assert "onclick" not in body
    assert "javascript:" not in body
    assert body.startswith("<p>Hello")


def test_reading_time_is_computed_from_the_text(tmp_path):
    words = " ".join(["word"] * 1000)
    article = tmp_path / "long.html"
    article.write_text(
        '+++\ntitle = "T"\nexcerpt = "E"\nauthor = "A"\npublished = 2025-01-01\n'
        f'category = "Education"\n+++\n<p>{words}</p>'
    )
    assert read_article(article)["reading_minutes"] == 5


def test_malformed_content_file_names_the_file(seeding_app, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    (content / "cities" / "boston.toml").write_text("city = \n")
    with pytest.raises(ContentError, match="boston.toml"):
        seed(seeding_app(content_dir=content))


def test_every_city_and_brand_has_the_counts_the_spec_requires(app):
    with app.app_context():
        cities = queries.cities()
        brands = queries.brands()
    assert [c["key"] for c in cities][:3] == ["new-york", "los-angeles", "chicago"]
    assert len(cities) == 13
    for city in cities:
        assert len(city["local_areas"]) == 8, city["key"]
        assert len(city["faqs"]) == 6, city["key"]
        assert len(city["testimonials"]) == 3, city["key"]
    assert len(brands) == 7
    for brand in brands:
        assert len(brand["popular_models"]) == 8, brand["key"]
    assert [b["name"] for b in brands if b["popular"]] == ["Rolex", "Patek Philippe"]


def test_categories_come_from_articles_newest_first(app):
    with app.app_context():
        articles = queries.articles()
        categories = queries.categories()
    dates = [a["published"] for a in articles]
    assert dates == sorted(dates, reverse=True)
    assert categories[0] == articles[0]["category"]
    assert len(categories) == len(set(a["category"] for a in articles))


def test_answer_links_become_parts_and_plain_text():
    faq = link_answers({"answer": "Submit it on [our sell form](/sell) today."})
    assert faq["answer"] == "Submit it on our sell form today."
    assert faq["answer_parts"] == [
        {"text": "Submit it on "},
        {"text": "our sell form", "href": "/sell"},
        {"text": " today."},
    ]


def test_only_site_paths_become_links_in_answers():
    answer = "See [this](https://a.example), [that](//b.example) or [it](javascript:alert(1))."
    faq = link_answers({"answer": answer})
    assert faq["answer"] == answer
    assert faq["answer_parts"] == [{"text": answer}]
