"""The seller's pages' request limits. The lost-link form is limited per client address
(STATUS_LINK_RATELIMIT) and per e-mail address asked for (STATUS_LINK_EMAIL_RATELIMIT), so no one
can have a seller's inbox flooded; the question and photo forms per client address
(STATUS_ACTION_RATELIMIT), so no one can flood staff's, and per lead from every client together
(STATUS_ACTION_LEAD_RATELIMIT), so rotating addresses (a botnet, a phone hopping networks, IPv6
privacy addresses) do not multiply what anyone holding a link can send staff.

Its key is the lead's id, never the token: the counters live in Redis, which must not hold a
key to a seller's page. A request whose link opens no lead is not counted here; it gets the one
404 every bad link gets.
"""

from __future__ import annotations

from flask import current_app, g, request

from app.extensions import limiter
from app.leads import links
from app.rendering.layout import site_info
from app.status import messages
from app.status.forms import LostLinkForm


def setting(name: str):
    """A limit read from the app's settings when a request is checked."""
    return lambda: current_app.config[name]


def asked_address() -> str:
    """The e-mail address the lost-link form asks for, as the key of its own limit."""
    return (LostLinkForm().email.data or "").lower()


limit_lost_link = limiter.limit(setting("STATUS_LINK_RATELIMIT"), methods=["POST"])
limit_lost_link_per_address = limiter.limit(
    setting("STATUS_LINK_EMAIL_RATELIMIT"), methods=["POST"], key_func=asked_address
)
limit_seller_action = limiter.limit(setting("STATUS_ACTION_RATELIMIT"))


def lead_id_of_request() -> int | None:
    """The id of the lead this request's link opens (looked up once per request), or None."""
    if "status_lead_id" not in g:
        lead = links.lead_by_status_token((request.view_args or {}).get("token") or "")
        g.status_lead_id = lead["id"] if lead else None
    return g.status_lead_id


def lead_key() -> str:
    """The per-lead limit's key: `lead-<id>`."""
    return f"lead-{lead_id_of_request()}"


def opens_no_lead() -> bool:
    """Whether the link opens no lead: such a request is left to the view's 404."""
    return lead_id_of_request() is None


def note_lead_limit_reached(_limit) -> None:
    """Remember, for the 429's words, that it was the lead's limit that was reached."""
    g.lead_limit_reached = True


def too_many_message() -> str:
    """A 429's words on the status pages: the lead's limit or the client's, and our phone."""
    text = messages.LEAD_TOO_MANY if g.get("lead_limit_reached") else messages.TOO_MANY
    return text.format(phone=site_info()["phone"])


# One budget for questions and photos together (a shared limit): each of them e-mails staff.
limit_seller_action_per_lead = limiter.shared_limit(
    setting("STATUS_ACTION_LEAD_RATELIMIT"),
    scope="status-action",
    key_func=lead_key,
    exempt_when=opens_no_lead,
    on_breach=note_lead_limit_reached,
)
