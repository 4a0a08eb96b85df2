"""Rendering a page: islands (React's server render), built assets, the shared layout, search
metadata, the page cache, compression and freezing pages for nginx."""
