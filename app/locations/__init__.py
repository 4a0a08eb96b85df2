"""City landing pages: /sell-watch-<slug>."""

from app.locations.routes import bp

__all__ = ["bp"]
