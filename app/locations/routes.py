from flask import redirect, render_template

from app.content import queries
from app.locations import bp


@bp.get("/sell-watch-<slug>")
def city(slug: str):
    """An unknown city goes to /404, as the spec asks, rather than answering in place."""
    record = queries.city(slug)
    if record is None:
        return redirect("/404")
    return render_template("pages/placeholder.html", heading=record["hero_title"])
