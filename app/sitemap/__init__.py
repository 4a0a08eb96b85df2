"""/sitemap.xml and /robots.txt: every indexable page, for search engines."""

from app.sitemap.routes import bp

__all__ = ["bp"]
