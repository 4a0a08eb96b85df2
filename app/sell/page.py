"""The sell page as rendered: the island's props come from the form, never from a copy."""

from __future__ import annotations

from flask import current_app, make_response, render_template, request

from app.catalog import BRANDS, CONDITIONS
from app.content import queries
from app.leads import handover
from app.photos.forms import photo_limits
from app.prices import coverage
from app.privacy.choice import opt_out
from app.rendering import seo
from app.rendering.layout import site_info
from app.sell.attribution import clean_fields, page_fields, utc_now
from app.sell.forms import SellForm
from app.sell.instant_range import as_page_props
from app.sell.messages import island_messages
from app.sell.submission import campaign_values, event_id_from


def mailin_props(props: dict) -> dict:
    """The handover's choices with their one-line explanations, the page that explains the
    mail and the sentence a seller who chose it reads on success; added only while the sale
    by mail is offered, so with it off the island's props (and markup) are as before."""
    if not current_app.config["MAILIN_ENABLED"]:
        return props
    choices = [{"value": value} | words for value, words in handover.CHOICES.items()]
    messages = props["messages"] | {"mailChosen": handover.MAIL_CHOSEN}
    return props | {"handovers": choices, "mailPage": "/sell-by-mail", "messages": messages}


def island_props(form: SellForm, error: str | None, photos_dropped: bool) -> dict:
    """Everything the SellForm island renders from; no per-session secret (CSRF is a meta tag)."""
    return mailin_props(
        {
            "action": "/sell",
            "fields": form.rules(),
            "brands": BRANDS,
            "conditions": CONDITIONS,
            "photos": photo_limits(),
            "messages": island_messages(),
            "values": form.values(),
            "errors": form.first_errors(),
            "formError": error,
            "photosDropped": photos_dropped,
            "range": as_page_props(form),
            "rangeUrl": "/sell/range",
        }
    )


def hidden_values(form: SellForm) -> dict:
    """Fields outside the island: campaign parameters and click ids (from this URL, or the page
    of this site that linked here, or as posted), the landing page and referrer host, and a
    server-made event id, so the plain form has them all and a repeated plain submit is one
    lead. The island replaces the campaign fields with what the browser kept for the visit."""
    if request.method == "POST":
        posted = form.visit_values()
        fields = campaign_values(posted) | {"metaEventId": event_id_from(posted)}
        return fields | clean_fields(posted, utc_now())
    referer = request.headers.get("Referer", "")
    params, attribution = page_fields(request.args, referer, utc_now())
    return campaign_values(params) | {"metaEventId": event_id_from(request.args)} | attribution


def advertising_ids() -> dict:
    """The Meta pixel's and the Google tag's ids for the page: none for a visitor who opted out
    (GPC or the privacy choices page), so neither script nor the noscript image is there."""
    if opt_out(request):
        return {"meta_pixel_id": "", "ga4_measurement_id": ""}
    config = current_app.config
    return {
        "meta_pixel_id": config["META_PIXEL_ID"],
        "ga4_measurement_id": config["GA4_MEASUREMENT_ID"],
    }


def form_page(
    form: SellForm,
    *,
    error: str | None = None,
    photos_dropped: bool = False,
    status: int = 200,
):
    """The /sell page; never cacheable, as it carries a CSRF token. Its intro promises a range
    as the seller types only while the guide covers the advertised brands (the home page's
    "Get Instant Valuation" flag), so the two pages never promise differently."""
    meta = seo.PageMeta(
        title=f"Sell Your Luxury Watch: Free Valuation | {site_info()['name']}",
        description=(
            "Tell us about your watch and send a few photos: a preliminary quote within "
            "24 hours, no fees, no obligation."
        ),
        path="/sell",
        structured_data=[seo.breadcrumbs(("Sell Your Watch", "/sell"))],
    )
    html = render_template(
        "sell/form.html",
        meta=meta,
        props=island_props(form, error, photos_dropped),
        hidden=hidden_values(form),
        hero=queries.document("sell"),
        instant_range=coverage.is_on(),
        **advertising_ids(),
    )
    response = make_response(html, status)
    response.headers["Cache-Control"] = "private, no-store"
    return response
