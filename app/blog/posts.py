"""Articles shaped for pages: display dates, category slugs, pictures, related posts."""

from __future__ import annotations

import re

from app.content import queries
from app.pictures.images import picture_props
from app.rendering.dates import display_date

RELATED_SLUGS = ("luxury-watch-market-usa", "authenticate-vintage-omega-speedmaster")
# A card's picture: the page less its margins (1rem, then 1.5rem from 640px), half of that less
# the gap from 768px, then at most 400px; said exactly, so a phone asks for the 700 px file.
CARD_SIZES = (
    "(max-width: 639px) calc(100vw - 2rem), (max-width: 767px) calc(100vw - 3rem), "
    "(max-width: 1023px) calc(50vw - 2.25rem), 400px"
)

# On the blog index a phone shows each card's picture as a 6rem square (PostCard's `index`).
INDEX_CARD_SIZES = "(max-width: 767px) 6rem, (max-width: 1023px) calc(50vw - 2.25rem), 400px"


def category_slug(category: str) -> str:
    """The category's name as a URL slug: lower case, other runs of characters one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-")


def reading_time(article: dict) -> str:
    """The article's reading time as cards and the article page show it ("5 min read")."""
    return f"{article['reading_minutes']} min read"


def post_card(article: dict, sizes: str = CARD_SIZES) -> dict:
    """An article as the blog filter island's props (JSON-native)."""
    return {
        "slug": article["slug"],
        "url": f"/blog/{article['slug']}",
        "title": article["title"],
        "excerpt": article["excerpt"],
        "category": article["category"],
        "categorySlug": category_slug(article["category"]),
        "published": article["published"],
        "dateDisplay": display_date(article["published"]),
        "readingTime": reading_time(article),
        "picture": picture_props(f"article-{article['slug']}", article["image_alt"], sizes),
    }


def categories() -> list[dict]:
    """Every category with its slug, in the order their newest article appears."""
    return [{"name": name, "slug": category_slug(name)} for name in queries.categories()]


def active_category(requested: str | None) -> str | None:
    """The requested category slug if it names one; anything else shows all posts."""
    slugs = {category["slug"] for category in categories()}
    return requested if requested in slugs else None


def related_posts(current_slug: str) -> list[dict]:
    """The two fixed cards (RELATED_SLUGS), the current article swapped for the newest other one."""
    chosen = [slug for slug in RELATED_SLUGS if slug != current_slug]
    for article in queries.articles():
        if len(chosen) == len(RELATED_SLUGS):
            break
        if article["slug"] not in chosen and article["slug"] != current_slug:
            chosen.append(article["slug"])
    return [post_card(queries.article(slug)) for slug in chosen]
