"""The leads inbox: the list with tabs, search and filters; a lead's page with its photos,
timeline and actions; the private photo route; the CSV export.

Every action is a plain POST form (CSRF, Post/Redirect/Get, a flash message), so the inbox works
with JavaScript off; the photo viewer is the one island. Every view, change, note, e-mail and
export is audited. Staff answers are never cached or indexed (app/staff private_headers).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from flask import Response, abort, flash, redirect, request, stream_with_context, url_for

from app.leads import display, export, history, links, search, storage, store
from app.prices import valuation
from app.sale import erasure, lifecycle, timeline
from app.sale.erasure import record_kept_until
from app.sale.purchase import deadline, register_asks
from app.staff import mail_panel, payout_panel, purchase_panel
from app.staff import queries as staff_queries
from app.staff.auth import current_staff, record, require_recent_auth, staff_required
from app.staff.lead_filters import EXTRA_TABS, NO_CAMPAIGN, PAYMENT_DUE, PER_PAGE, LeadQuery, tabs
from app.staff.lead_forms import ACTIONS, Action, MoveForm
from app.staff.pages import page

PHOTO_TYPES = {".jpg": "image/jpeg", ".webp": "image/webp"}  # what the photo worker writes
PHOTO_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
    "Content-Security-Policy": "sandbox; default-src 'none'",
    "Content-Disposition": "inline",
}


def actor() -> str:
    """The signed-in staff member as a lead event's actor: `staff:<id>`."""
    return f"staff:{current_staff()['id']}"


def staff_names() -> dict[str, str]:
    """Each actor staff read by name: a staff member (`staff:<id>`) by the person's name, and
    the register asked by API, for the timeline and the register checks' list."""
    names = {f"staff:{staff['id']}": staff["name"] for staff in staff_queries.all_staff()}
    return names | {"register_api": "Register API"}


def lead_or_404(lead_id: int) -> dict:
    """The lead with this id, or a 404."""
    lead = store.get_lead(lead_id)
    if lead is None:
        abort(404)
    return lead


# The list


@staff_required
def leads():
    """The leads list for the query string's tab, search, filters and page."""
    query = LeadQuery.from_args(request.args)
    counts, extra = search.count_by_state(query.filters()), search.count_holds(query.filters())
    extra[PAYMENT_DUE] = search.count_leads(replace(query, state=PAYMENT_DUE).filters())
    total = sum(counts.values()) if not query.state else (counts | extra).get(query.state, 0)
    pages = max(1, -(-total // PER_PAGE))
    if query.page > pages:
        query = replace(query, page=pages)
    rows = search.find_leads(query.filters(), PER_PAGE, (query.page - 1) * PER_PAGE)
    record("leads_listed", data={"page": query.page, "filtered": query.filtered})
    now, due = datetime.now(UTC), deadline.due_lead_ids()
    return page(
        "inbox/list.html",
        "Leads",
        query=query,
        leads=[list_row(lead, now, lead["id"] in due) for lead in rows],
        tabs=tabs(counts, extra),
        total=total,
        pages=pages,
        choices=search.filter_choices(),
        states=lifecycle.STATE_LABELS | EXTRA_TABS,
        no_campaign=NO_CAMPAIGN,
    )


def list_row(lead: dict, now: datetime, payment_due: bool) -> dict:
    """A lead as a list row, with its age, received time, overdue and payment-due flags and
    state label."""
    return lead | {
        "age": display.short_age(lead["created_at"], now),
        "received": display.local_time(lead["created_at"]),
        "overdue": display.awaiting_first_reply(lead, now),
        "payment_due": payment_due,
        "seller_waiting": bool(lead["seller_waiting"]),
        "state_label": lifecycle.STATE_LABELS[lead["state"]],
    }


# One lead


@staff_required
def lead(lead_id: int):
    """A lead's page; every view is audited."""
    record("lead_viewed", lead_id)
    return lead_page(lead_or_404(lead_id))


def lead_page(lead: dict, failed: tuple[str, object] | None = None, status: int = 200):
    """The lead's page; `failed` is (action name, form) of a submission to show with errors
    (an action's, or a form of the purchase panel's)."""
    register_asks.refresh_on_view(lead)
    forms = {
        name: action_form(action, lead)
        for name, action in ACTIONS.items()
        if action.offered(lead) and name != "erase"
    }
    if failed and failed[0] in forms:
        forms[failed[0]] = failed[1]
    names = staff_names()
    return page(
        "inbox/lead.html",
        f"{lead['reference']} · {lead['watch_brand']}",
        status,
        lead=lead,
        state_label=lifecycle.STATE_LABELS[lead["state"]],
        overdue=display.awaiting_first_reply(lead),
        received=display.local_time(lead["created_at"]),
        age=display.short_age(lead["created_at"]),
        photos=photo_props(lead["id"]),
        entries=timeline.entries(history.lead_events(lead["id"]), names),
        purchase=purchase_panel.panel(lead, names, failed),
        mail=mail_panel.panel(lead),
        payout=payout_panel.panel(lead, names),
        valuation=valuation.for_lead(lead),
        forms=forms,
        actions=ACTIONS,
        can_erase=ACTIONS["erase"].offered(lead),
        working_links=links.working_link_count(lead["id"]),
    )


def action_form(action: Action, lead: dict):
    """An empty form for `action` on the lead's page; a move carries the state shown and what
    the lead already says (Mark bought: the accepted offer)."""
    form = action.form(prefix=action.name, formdata=None)
    if isinstance(form, MoveForm):
        form.expected_state.data = lead["state"]
        form.prefill(lead)
    return form


def photo_props(lead_id: int) -> list[dict]:
    """The PhotoViewer island's props: URLs on the private route, never file names."""
    props = []
    for photo in store.lead_photos(lead_id):
        urls = {"lead_id": lead_id, "photo_id": photo["public_id"]}
        ready = bool(photo["image_name"])
        props.append(
            {
                "id": photo["public_id"],
                "label": f"Photo {photo['position']}",
                "full": url_for("staff.lead_photo", **urls) if ready else None,
                "thumb": url_for("staff.lead_photo_thumb", **urls) if ready else None,
                "width": photo["width"],
                "height": photo["height"],
                "thumbWidth": 320,
                "thumbHeight": 320,
                "problem": photo["error"] or "not processed yet",
            }
        )
    return props


@staff_required
def act(lead_id: int, action_name: str):
    """One action from the lead's page. Moves are checked by lifecycle.transition against the
    state the page showed, so a stale page gets its clear refusal rather than a guess here."""
    lead = lead_or_404(lead_id)
    action = ACTIONS.get(action_name)
    if action is None or action_name == "erase":
        abort(404)
    form = action.form(prefix=action.name)
    is_move = isinstance(form, MoveForm)
    if not is_move and not action.offered(lead):
        return back(lead_id, f"“{action.title}” is not possible for this lead.", "error")
    if not form.validate():
        if action.offered(lead):
            return lead_page(lead, failed=(action.name, form), status=400)
        return back(lead_id, "That form was out of date; nothing was changed.", "error")
    if is_move:
        return apply_move(lead, action, form)
    lifecycle.add_note(lead_id, actor(), form.note.data)
    record("lead_note_added", lead_id)
    return back(lead_id, "Note added.")


def back(lead_id: int, message: str, category: str = "message"):
    """Post/Redirect/Get: to the lead's page, with a message."""
    flash(message, category)
    return redirect(url_for("staff.lead", lead_id=lead_id), code=303)


def apply_move(lead: dict, action: Action, form: MoveForm):
    """Move the lead as `form` says, audit it and go back to the lead with the outcome."""
    to_state, expected = form.target(), form.expected_state.data
    try:
        event_id = lifecycle.transition(lead["id"], to_state, actor(), form.details(), expected)
    except lifecycle.TransitionError as error:
        record("lead_change_refused", lead["id"], {"to": to_state, "expected": expected})
        return back(lead["id"], str(error), "error")
    record("lead_state_changed", lead["id"], {"from": expected, "to": to_state, "event": event_id})
    email = lifecycle.SELLER_EMAILS.get(to_state)
    if email:
        record("seller_email_queued", lead["id"], {"event": event_id, "email": email})
    done = f"{action.title}: done, the lead is now {lifecycle.STATE_LABELS[to_state]}."
    return back(lead["id"], done + (" The seller is being e-mailed." if email else ""))


@staff_required
def revoke_links(lead_id: int):
    """Every status link of the lead stops working at once (a forwarded or leaked link, or the
    seller asks); audited and on the lead's timeline."""
    lead = lead_or_404(lead_id)
    if lead["erased_at"]:
        return back(lead_id, "This lead was erased: it has no status links.", "error")
    revoked = links.revoke_all_links(lead_id, actor())
    record("status_links_revoked", lead_id, {"links": revoked})
    return back(
        lead_id,
        f"{timeline.plural(revoked, 'status link')} of this lead stopped working. The seller "
        "gets a new one with our next e-mail, or from the lost-link form while the sale is open.",
    )


@staff_required
def mark_opted_out(lead_id: int):
    """The seller told staff (by phone or e-mail) not to share their data with ad platforms:
    kept on the lead like a GPC signal or the choices page; audited and on the timeline."""
    lead = lead_or_404(lead_id)
    if lead["erased_at"]:
        return back(lead_id, "This lead was erased: nothing of it is sent anywhere.", "error")
    if not store.mark_ad_opt_out(lead_id, "choice", actor()):
        return back(lead_id, "This seller had already opted out: nothing was changed.")
    record("lead_opted_out", lead_id)
    return back(lead_id, "Opted out: nothing more about this lead is sent to Meta or Google.")


# Erasure: both factors again, then the reference typed to confirm


@require_recent_auth
def erase(lead_id: int):
    """Erase a closed lead's personal data once its reference is typed to confirm; or a bought
    lead's, as the seller can from the status page (a request made by phone or letter), keeping
    the purchase record and its documents the law requires until their retain_until."""
    lead = lead_or_404(lead_id)
    action = ACTIONS["erase"]
    if not action.offered(lead):
        return back(lead_id, "Only a closed or bought lead can be erased, and only once.", "error")
    try:  # the watch away from its seller, or a flag: said before the form, not after it
        erasure.check_erasable(lead_id, lead["state"], actor())
    except lifecycle.TransitionError as error:
        return back(lead_id, str(error), "error")
    kept_until = record_kept_until(lead)
    form = action.form(prefix="erase")
    if request.method == "GET" or not form.validate():
        status = 400 if form.errors else 200
        return erase_page(lead, form, kept_until, status)
    if form.reference.data.strip().upper() != lead["reference"]:
        form.reference.errors = [f"Type {lead['reference']} exactly to confirm."]
        return erase_page(lead, form, kept_until, 400)
    try:
        if kept_until:
            removed = erasure.erase_sale(lead_id, actor())
        else:
            removed = erasure.erase(lead_id, actor())
    except lifecycle.TransitionError as error:
        return back(lead_id, str(error), "error")
    record("lead_erased", lead_id, {"photos": removed, "state": lead["state"]})
    kept = "The outcome is kept."
    if kept_until:
        kept = f"The purchase record, bill of sale and receipt are kept until {kept_until}."
    return back(lead_id, f"Personal data erased; {removed} photos removed. {kept}")


def erase_page(lead: dict, form, kept_until: str | None, status: int):
    """The confirmation page, saying what goes and, after a sale, what stays and until when."""
    return page(
        "inbox/erase.html",
        "Erase personal data",
        status,
        lead=lead,
        form=form,
        kept_until=kept_until,
    )


# Photos: private storage, only through the lead they belong to


def send_photo(lead_id: int, photo_id: str, column: str) -> Response:
    """A photo of this lead (the file named in `column`) with the private headers, or a 404."""
    photo = store.lead_photo(lead_id, photo_id)
    if photo is None or not photo[column]:
        abort(404)
    name = photo[column]
    path = storage.photos_dir() / name
    mimetype = PHOTO_TYPES.get(path.suffix)
    if mimetype is None or not path.is_file():
        abort(404)
    # Read whole (a kept photo is at most 4096 px, a few MB): no file stays open when a staff
    # browser abandons the request, as it does leaving a page whose thumbnails still load.
    response = Response(path.read_bytes(), mimetype=mimetype)
    response.headers.update(PHOTO_HEADERS)
    return response


@staff_required
def lead_photo(lead_id: int, photo_id: str):
    """A lead's full-size photo; every view is audited."""
    response = send_photo(lead_id, photo_id, "image_name")
    record("lead_photo_viewed", lead_id, {"photo": photo_id})
    return response


@staff_required
def lead_photo_thumb(lead_id: int, photo_id: str):
    """A lead's photo thumbnail (unlike the full photo, not audited)."""
    return send_photo(lead_id, photo_id, "thumb_name")


# Export: the current filter as CSV, after both factors again


@require_recent_auth
def export_leads():
    """The leads matching the current filter as a CSV download, audited. Streamed a few
    hundred leads at a time, so its memory stays flat however many leads match."""
    query = LeadQuery.from_args(request.args)
    count = search.count_leads(query.filters())
    record("leads_exported", data={"count": count, "filtered": query.filtered})
    chunks = export.csv_chunks(search.iter_leads(query.filters()))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    return Response(
        stream_with_context(chunks),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="leads-{stamp}.csv"'},
    )
