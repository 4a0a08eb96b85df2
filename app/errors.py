"""The not-found page, for unmatched paths and for /404 (where unknown cities are sent)."""

from flask import Blueprint, render_template

bp = Blueprint("errors", __name__)


@bp.app_errorhandler(404)
def not_found(_error):
    return render_template("errors/404.html"), 404


@bp.get("/404")
def not_found_page():
    return render_template("errors/404.html"), 404
