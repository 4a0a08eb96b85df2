"""The seller's instant range on the sell form (docs/prices.md): from the guide, for the watch
fields as typed so far. The island asks for it as the seller types (`/sell/range`, JSON); the
plain form's pages and the submission compute it here, so every path gives the same answer.
Brand and condition count only when they are among the form's own choices; otherwise, as for
no match, there is no number."""

from __future__ import annotations

from flask import jsonify, request

from app.catalog import BRANDS, CONDITIONS
from app.prices import index
from app.sell import range_limits
from app.sell.forms import SellForm

MODEL_LENGTH = 100  # the form's own limit on the model field


def range_for(form: SellForm) -> index.InstantRange | None:
    """The instant range for the form's watch fields (checked or not), or None."""
    brand, condition = form.watchBrand.data, form.watchCondition.data
    if brand not in BRANDS or condition not in CONDITIONS:
        return None
    model = (form.watchModel.data or "")[:MODEL_LENGTH]
    return index.instant_range(
        brand, model, condition, bool(form.hasBox.data), bool(form.hasPapers.data)
    )


def as_props(form: SellForm) -> dict | None:
    """The range as the island's props and the pages show it."""
    found = range_for(form)
    return found.as_json() if found else None


def as_page_props(form: SellForm) -> dict | None:
    """The range the sell page draws for the form's watch (its refusal pages draw a refused
    post again): charged to the client's budget as /sell/range's answers are, so a client past
    its limit reads none there either (range_limits.within_limit)."""
    shown = as_props(form)
    return shown if shown is None or range_limits.within_limit() else None


def answer():
    """GET /sell/range?watchBrand=&watchModel=&watchCondition=&hasBox=&hasPapers=: the range as
    JSON ({"range": null} without one), read through the sell form's own fields and filters;
    counted in the day's total (app/sell/range_limits.py)."""
    range_limits.count_answer()
    form = SellForm(formdata=request.args, meta={"csrf": False})
    response = jsonify(range=as_props(form))
    response.headers["Cache-Control"] = "private, max-age=60"
    return response
