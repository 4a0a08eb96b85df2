"""The not-found page, for unmatched paths and for /404 (where unknown cities are sent)."""

from flask import Blueprint, render_template, request

from app import seo
from app.layout import site_info

bp = Blueprint("errors", __name__)


def not_found_response():
    meta = seo.PageMeta(
        title=f"Page Not Found | {site_info()['name']}",
        description="The page you were looking for does not exist.",
        path=request.path,
        noindex=True,
    )
    return render_template("errors/404.html", meta=meta), 404


@bp.app_errorhandler(404)
def not_found(_error):
    return not_found_response()


@bp.get("/404")
def not_found_page():
    return not_found_response()
