"""Brand landing pages: /sell-<brand>-watch."""

from app.brands.routes import bp

__all__ = ["bp"]
