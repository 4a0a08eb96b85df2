"""The blog index and articles."""

from app.blog.routes import bp

__all__ = ["bp"]
