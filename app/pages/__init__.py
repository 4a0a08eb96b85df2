"""Home, authentication services and the legal pages."""

from app.pages.routes import bp

__all__ = ["bp"]
