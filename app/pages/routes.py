from flask import render_template

from app.pages import bp


@bp.get("/")
def home():
    return render_template("pages/placeholder.html", heading="Sell your luxury watch")


@bp.get("/watch-authentication")
def authentication():
    return render_template("pages/placeholder.html", heading="Watch Authentication")


@bp.get("/terms")
def terms():
    return render_template("pages/placeholder.html", heading="Terms and Conditions")


@bp.get("/privacy")
def privacy():
    return render_template("pages/placeholder.html", heading="Privacy Policy")
