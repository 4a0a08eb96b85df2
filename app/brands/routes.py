from flask import abort, render_template

from app.brands import bp
from app.content import queries


@bp.get("/sell-<key>-watch")
def brand(key: str):
    record = queries.brand(key)
    if record is None:
        abort(404)
    return render_template("pages/placeholder.html", heading=record["hero_title"])
