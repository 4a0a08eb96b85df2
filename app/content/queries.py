"""Every read of the content database. Pages get plain dicts; nothing else runs SQL on it."""

from __future__ import annotations

import json
import sqlite3

from flask import current_app, g

JSON_COLUMNS = {
    "documents": ("data",),
    "cities": ("local_areas", "faqs", "testimonials"),
    "brands": ("popular_models", "faqs", "testimonials"),
    "articles": (),
}


class ContentMissing(RuntimeError):
    """The content database has not been built yet."""


def connection() -> sqlite3.Connection:
    """One read-only connection per request, so a re-seed is seen by the next request."""
    if "content_db" not in g:
        path = current_app.config["CONTENT_DB"]
        try:
            g.content_db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        except sqlite3.OperationalError:
            raise ContentMissing(f"{path} does not exist: run `flask seed`.") from None
        g.content_db.row_factory = sqlite3.Row
    return g.content_db


def close_connection(_exception=None) -> None:
    """Close the connection this app context opened, if any (a teardown handler)."""
    db = g.pop("content_db", None)
    if db is not None:
        db.close()


def _rows(table: str, where: str = "", params: tuple = ()) -> list[dict]:
    sql = f"select * from {table} {where} order by position"
    rows = []
    for row in connection().execute(sql, params):
        record = dict(row)
        for column in JSON_COLUMNS[table]:
            if record.get(column) is not None:
                record[column] = json.loads(record[column])
        rows.append(record)
    return rows


def _one(table: str, column: str, value: str) -> dict | None:
    rows = _rows(table, f"where {column} = ?", (value,))
    return rows[0] if rows else None


def document(name: str) -> dict:
    """A whole-file document: 'site', 'home' or 'page:<name>'."""
    row = _one("documents", "name", name)
    if row is None:
        raise ContentMissing(f"content document {name!r} is missing: check content/ and re-seed.")
    return row["data"]


def document_dates() -> dict[str, str]:
    """When each whole-file document last changed, by name."""
    return {row["name"]: row["updated"] for row in _rows("documents")}


def site() -> dict:
    """The site-wide words of content/site.toml."""
    return document("site")


def cities() -> list[dict]:
    """Every city page's record, in the cities' own order."""
    return _rows("cities")


def city(slug: str) -> dict | None:
    """The city with this key (its file name in content/cities/), or None."""
    return _one("cities", "key", slug)


def brands() -> list[dict]:
    """Every brand page's record, in the brands' own order."""
    return _rows("brands")


def brand(key: str) -> dict | None:
    """The brand with this key (its file name in content/brands/), or None."""
    return _one("brands", "key", key)


def articles(category: str | None = None) -> list[dict]:
    """Articles newest first, optionally of one category."""
    if category:
        return _rows("articles", "where category = ?", (category,))
    return _rows("articles")


def article(slug: str) -> dict | None:
    """The article with this slug (its file name in content/blog/), or None."""
    return _one("articles", "slug", slug)


def every_row() -> dict[str, list[dict]]:
    """Every row of every table, by table: what `flask content check` scans for placeholders."""
    return {table: _rows(table) for table in JSON_COLUMNS}


def categories() -> list[str]:
    """Distinct categories in the order their newest article appears."""
    seen: dict[str, None] = {}
    for row in connection().execute("select category from articles order by position"):
        seen.setdefault(row["category"], None)
    return list(seen)


def indexable_pages() -> list[dict]:
    """(path, lastmod) of every page search engines may index, for the sitemap and `flask
    freeze`; the sell form's thank-you page is deliberately absent, and the sale by mail's
    page is there only while MAILIN_ENABLED is on."""
    dates = document_dates()
    all_articles = articles()
    pages = [
        {"path": "/", "lastmod": dates["home"]},
        {"path": "/sell", "lastmod": dates["site"]},
        {"path": "/watch-authentication", "lastmod": dates["page:watch-authentication"]},
        {"path": "/blog", "lastmod": max([dates["blog"]] + [a["updated"] for a in all_articles])},
        {"path": "/terms", "lastmod": dates["page:terms"]},
        {"path": "/privacy", "lastmod": dates["page:privacy"]},
    ]
    if current_app.config["MAILIN_ENABLED"]:
        pages.append({"path": "/sell-by-mail", "lastmod": dates["page:sell-by-mail"]})
    pages += [{"path": f"/{b['url_slug']}", "lastmod": b["updated"]} for b in brands()]
    pages += [{"path": f"/sell-watch-{c['key']}", "lastmod": c["updated"]} for c in cities()]
    pages += [{"path": f"/blog/{a['slug']}", "lastmod": a["updated"]} for a in all_articles]
    return pages
