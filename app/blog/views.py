"""The blog: its index, filtered by category on the server and in place by the BlogFilter island,
and its articles (their URLs are app/blog/routes.py's)."""

from flask import render_template, request

from app.blog import posts
from app.content import queries
from app.errors import not_found_response
from app.rendering import seo
from app.rendering.dates import display_date
from app.rendering.layout import site_info
from app.rendering.page_cache import cache_page


@cache_page(query=("category",))
def index():
    """The blog index: every post as a card for the filter island, the requested category active."""
    page = queries.document("blog")
    active = posts.active_category(request.args.get("category"))
    meta = seo.PageMeta(
        title=page["meta_title"],
        description=page["meta_description"],
        path="/blog",
        structured_data=[seo.breadcrumbs(("Blog", "/blog"))],
    )
    filter_props = {
        "posts": [
            posts.post_card(article, posts.INDEX_CARD_SIZES) for article in queries.articles()
        ],
        "categories": posts.categories(),
        "active": active,
    }
    return render_template("blog/index.html", meta=meta, page=page, filter_props=filter_props)


@cache_page
def article(slug: str):
    """One article with its structured data and related posts; 404 for an unknown slug."""
    record = queries.article(slug)
    if record is None:
        return article_not_found()
    site = site_info()
    path = f"/blog/{slug}"
    image = f"article-{slug}"
    meta = seo.PageMeta(
        title=f"{record['title']} | {site['name']} Blog",
        description=record["excerpt"],
        path=path,
        image=image,
        og_type="article",
        published=record["published"],
        structured_data=[
            seo.blog_posting(record, site, path, image),
            seo.breadcrumbs(("Blog", "/blog"), (record["title"], path)),
        ],
    )
    return render_template(
        "blog/article.html",
        meta=meta,
        article=record,
        date_display=display_date(record["published"]),
        reading_time=posts.reading_time(record),
        category_slug=posts.category_slug(record["category"]),
        related=posts.related_posts(slug),
    )


def article_not_found():
    """The blog's 404 page for an unknown article, pointing to the other guides."""
    return not_found_response(
        "blog/not_found.html",
        title="Article Not Found",
        description="This article does not exist. Browse our guides to selling a luxury watch.",
    )
