"""/sitemap.xml and /robots.txt: every indexable page, for search engines."""
