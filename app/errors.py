"""The not-found page, for unmatched paths and for /404 (where unknown cities are sent)."""

from flask import Blueprint, render_template, request

from app.rendering import seo
from app.rendering.layout import site_info

bp = Blueprint("errors", __name__)


def not_found_response(
    template: str = "errors/404.html",
    title: str = "Page Not Found",
    description: str = "The page you were looking for does not exist.",
    path: str | None = None,
):
    """A 404 page that search engines are told not to index (also used for unknown articles);
    `path` replaces the request's in its canonical address (a status link's token stays out)."""
    meta = seo.PageMeta(
        title=f"{title} | {site_info()['name']}",
        description=description,
        path=path or request.path,
        noindex=True,
    )
    return render_template(template, meta=meta), 404


@bp.app_errorhandler(404)
def not_found(_error):
    return not_found_response()


@bp.get("/404")
def not_found_page():
    return not_found_response()
