from flask import redirect, render_template

from app.sell import bp


@bp.get("/sell")
def form():
    return render_template("pages/placeholder.html", heading="Sell Your Watch")


@bp.get("/sell-form")
def old_form_url():
    """Older article links point here; the form lives at /sell."""
    return redirect("/sell", code=301)
