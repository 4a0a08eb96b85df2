from flask import abort, render_template

from app.blog import bp
from app.content import queries


@bp.get("/blog")
def index():
    return render_template("pages/placeholder.html", heading="Watch Insights")


@bp.get("/blog/<slug>")
def article(slug: str):
    record = queries.article(slug)
    if record is None:
        abort(404)
    return render_template("pages/placeholder.html", heading=record["title"])
