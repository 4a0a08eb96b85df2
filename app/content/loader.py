"""Build instance/content.db from the files in content/ (the `flask seed` command).

content/ is the source of truth and the database a disposable artefact: it is built in a
temporary file beside the live one and swapped in atomically, so readers never see half a seed.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import bleach
import click
import sqlite_utils
from flask import Flask, current_app
from flask.cli import with_appcontext
from redis.exceptions import RedisError

from app.extensions import cache

ARTICLE_TAGS = [
    "p",
    "h2",
    "h3",
    "h4",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "a",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "br",
]
ARTICLE_ATTRIBUTES = {"a": ["href", "title"], "th": ["scope"]}
WORDS_PER_MINUTE = 200
FRONT_MATTER = re.compile(r"\A\+\+\+\n(.*?)\n\+\+\+\n(.*)\Z", re.DOTALL)
ANSWER_LINK = re.compile(r"\[([^\[\]]+)\]\((/(?!/)[^()\s]*)\)")  # site paths only, not //host


class ContentError(ValueError):
    """A file in content/ is malformed; the message names the file."""


def fill_tokens(value, tokens: dict[str, str]):
    """Replace {site_name}, {phone} and {email} in every string of a nested structure."""
    if isinstance(value, str):
        for token, replacement in tokens.items():
            value = value.replace("{" + token + "}", replacement)
        return value
    if isinstance(value, list):
        return [fill_tokens(item, tokens) for item in value]
    if isinstance(value, dict):
        return {key: fill_tokens(item, tokens) for key, item in value.items()}
    return value


def modified_on(path: Path) -> str:
    """The file's modification date: the sitemap's lastmod for the page it feeds."""
    return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC).date().isoformat()


def read_toml(path: Path) -> dict:
    """A TOML file as data; a syntax error becomes a ContentError naming the file."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ContentError(f"{path}: {error}") from None


TABLE_WRAPPER = (
    '<div class="table-scroll" tabindex="0" role="region" aria-label="Table (scrolls sideways)">'
)


def sanitise_html(html: str) -> str:
    """Article HTML is trusted-ish content, but cleaned once here so no page ever has to.

    Tables are wrapped in a focusable region so keyboard users can scroll wide ones on phones.
    """
    clean = bleach.clean(html, tags=ARTICLE_TAGS, attributes=ARTICLE_ATTRIBUTES, strip=True)
    clean = clean.replace("<table>", TABLE_WRAPPER + "<table>")
    clean = clean.replace("</table>", "</table></div>")
    return clean.strip()


def reading_minutes(html: str) -> int:
    """Minutes to read the HTML's text at WORDS_PER_MINUTE, at least one."""
    words = len(bleach.clean(html, tags=[], strip=True).split())
    return max(1, math.ceil(words / WORDS_PER_MINUTE))


def read_article(path: Path) -> dict:
    """An article file (TOML front matter between +++ lines, then HTML) as a row of `articles`."""
    match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
    if not match:
        raise ContentError(f"{path}: expected front matter between +++ lines, then HTML")
    try:
        meta = tomllib.loads(match.group(1))
    except tomllib.TOMLDecodeError as error:
        raise ContentError(f"{path}: {error}") from None
    body = sanitise_html(match.group(2))
    return {
        "slug": path.stem,
        "title": meta["title"],
        "excerpt": meta["excerpt"],
        "author": meta["author"],
        "published": meta["published"].isoformat(),
        "category": meta["category"],
        "image_alt": meta.get("image_alt", meta["title"]),
        "body_html": body,
        "reading_minutes": reading_minutes(body),
        "updated": modified_on(path),
    }


def sanitise_bodies(value):
    """Every `body` value in a document is HTML, and each variant of one (`payouts_body`): clean
    it the same way as articles."""
    if isinstance(value, list):
        return [sanitise_bodies(item) for item in value]
    if isinstance(value, dict):
        return {
            key: sanitise_html(item) if key.rpartition("_")[2] == "body" else sanitise_bodies(item)
            for key, item in value.items()
        }
    return value


def answer_parts(answer: str) -> list[dict]:
    """An answer as runs of text and site links, for the FAQ island to render without HTML."""
    parts, end = [], 0
    for match in ANSWER_LINK.finditer(answer):
        if match.start() > end:
            parts.append({"text": answer[end : match.start()]})
        parts.append({"text": match.group(1), "href": match.group(2)})
        end = match.end()
    if end < len(answer):
        parts.append({"text": answer[end:]})
    return parts


def link_answers(value):
    """Every `answer` may link a page as `[words](/path)`: kept as parts, and as plain text.

    Answers stay plain text in content/ (nothing to sanitise), yet a reader can follow a link.
    """
    if isinstance(value, list):
        return [link_answers(item) for item in value]
    if isinstance(value, dict):
        linked = {key: link_answers(item) for key, item in value.items()}
        if isinstance(value.get("answer"), str):
            linked["answer"] = ANSWER_LINK.sub(r"\1", value["answer"])
            linked["answer_parts"] = answer_parts(value["answer"])
        return linked
    return value


def read_keyed_files(folder: Path) -> list[dict]:
    """One record per TOML file, keyed by file name, in the files' own `order`."""
    records = [
        {"key": path.stem, **read_toml(path), "updated": modified_on(path)}
        for path in sorted(folder.glob("*.toml"))
    ]
    return sorted(records, key=lambda record: (record.get("order", 0), record["key"]))


def read_content(content_dir: Path, tokens: dict[str, str]) -> dict[str, list[dict]]:
    """Everything in content/, as rows per table, tokens filled in."""
    documents = [
        {"name": path.stem, "data": read_toml(path), "updated": modified_on(path)}
        for path in sorted(content_dir.glob("*.toml"))
    ]
    documents += [
        {
            "name": f"page:{path.stem}",
            "data": sanitise_bodies(read_toml(path)),
            "updated": modified_on(path),
        }
        for path in sorted((content_dir / "pages").glob("*.toml"))
    ]
    brands = read_keyed_files(content_dir / "brands")
    for brand in brands:
        brand["url_slug"] = f"sell-{brand['key']}-watch"
    articles = [read_article(path) for path in sorted((content_dir / "blog").glob("*.html"))]
    articles.sort(key=lambda article: (article["published"], article["slug"]), reverse=True)
    tables = {
        "documents": documents,
        "cities": read_keyed_files(content_dir / "cities"),
        "brands": brands,
        "articles": articles,
    }
    return link_answers(fill_tokens(tables, tokens))


def write_database(path: Path, tables: dict[str, list[dict]]) -> None:
    """Insert each table's rows into the database at `path`, `position` keeping their order."""
    db = sqlite_utils.Database(path)
    primary_keys = {"documents": "name", "cities": "key", "brands": "key", "articles": "slug"}
    for table, rows in tables.items():
        db[table].insert_all(
            [{"position": index, **row} for index, row in enumerate(rows)],
            pk=primary_keys[table],
            alter=True,
        )
    db.close()


def content_tokens(config) -> dict[str, str]:
    """The values of the {site_name}, {phone} and {email} tokens, from the app's settings."""
    return {
        "site_name": config["SITE_NAME"],
        "phone": config["SITE_PHONE"],
        "email": config["SITE_EMAIL"],
    }


def seed(app: Flask) -> dict[str, int]:
    """Rebuild the content database from content/ and swap it in; return row counts. Pages
    cached from the old content are never served again, cleared or not: every page's key
    carries the content database's identity (app/rendering/page_cache.py)."""
    target = Path(app.config["CONTENT_DB"])
    target.parent.mkdir(parents=True, exist_ok=True)
    tables = read_content(Path(app.config["CONTENT_DIR"]), content_tokens(app.config))
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".content-", suffix=".db")
    os.close(handle)
    try:
        write_database(Path(temporary), tables)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return {table: len(rows) for table, rows in tables.items()}


def clear_page_cache() -> str | None:
    """Free the room the pages of the old content take; None, or what it means that it could
    not (Redis down: seeding needs no Redis, and no stale page can be served anyway)."""
    try:
        cache.clear()
    except RedisError as error:
        minutes = current_app.config["CACHE_DEFAULT_TIMEOUT"] // 60
        return (
            f"The page cache (Redis) could not be cleared: {error}. No page of the old content "
            "is served: each cached page is keyed on the content database this seed replaced. "
            f"The old pages take room in Redis until they expire, within {minutes} minutes."
        )
    return None


@click.command("seed")
@with_appcontext
def seed_command() -> None:
    """Load content/ into the content database and clear the page cache (Redis need not be
    running)."""
    counts = seed(current_app)
    summary = ", ".join(f"{count} {table}" for table, count in counts.items())
    click.echo(f"Seeded {current_app.config['CONTENT_DB']}: {summary}.")
    if problem := clear_page_cache():
        click.echo(problem)
