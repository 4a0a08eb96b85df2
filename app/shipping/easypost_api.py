"""The label provider, EasyPost, through its own library: one client per app, its API base a
setting (EASYPOST_API_BASE: the tests point it at a local fake), and the few calls the sale by
mail makes. Every refusal or failure comes back as ProviderError with the provider's own
words, for staff to act on; none is retried here (the jobs are)."""

from __future__ import annotations

from easypost import EasyPostClient
from easypost.errors import EasyPostError
from flask import current_app

from app.config_checks import postal_address

ADULT_SIGNATURE = {"delivery_confirmation": "ADULT_SIGNATURE"}  # the policy's condition


class ProviderError(RuntimeError):
    """The provider refused or failed a request; `status` is its HTTP status, if it answered."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


def client() -> EasyPostClient:
    """This app's EasyPost client (made once per app)."""
    made = current_app.extensions.get("easypost")
    if made is None:
        config = current_app.config
        made = EasyPostClient(
            config["EASYPOST_API_KEY"],
            api_base=config["EASYPOST_API_BASE"].rstrip("/"),
            timeout=config["EASYPOST_TIMEOUT"],
        )
        current_app.extensions["easypost"] = made
    return made


def call(what: str, request, *args, **params) -> dict:
    """One request to the provider, its answer as plain data; ProviderError naming `what`."""
    try:
        return request(*args, **params).to_dict()
    except EasyPostError as error:
        status = getattr(error, "http_status", None)
        raise ProviderError(f"could not {what}: {error.message or error}", status) from error


def receiving_address() -> dict:
    """Where inbound parcels go and return labels come from: MAILIN_RECEIVING_ADDRESS."""
    return postal_address(current_app.config["MAILIN_RECEIVING_ADDRESS"]) | {"country": "US"}


def create_shipment(from_address: dict, to_address: dict, parcel: dict, reference: str) -> dict:
    """A shipment on the business's carrier account, adult signature required, not bought."""
    return call(
        "create the shipment",
        client().shipment.create,
        from_address=from_address,
        to_address=to_address,
        parcel=parcel,
        carrier_accounts=[current_app.config["MAILIN_CARRIER_ACCOUNT"]],
        options=ADULT_SIGNATURE,
        reference=reference,
    )


def retrieve_shipment(shipment_id: str) -> dict:
    """A shipment as the provider holds it now (bought or not)."""
    return call("read the shipment", client().shipment.retrieve, shipment_id)


def buy_shipment(shipment_id: str, rate_id: str) -> dict:
    """Buy the shipment's label at one of its rates (no carrier insurance: the policy covers)."""
    return call("buy the label", client().shipment.buy, shipment_id, rate={"id": rate_id})


def refund_shipment(shipment_id: str) -> dict:
    """Ask for an unused label's postage back."""
    return call("refund the label", client().shipment.refund, shipment_id)


def create_pickup(shipment_id: str, address_id: str, window: tuple[str, str], reference: str
                  ) -> dict:  # fmt: skip
    """A carrier pickup of a bought shipment at its sender's verified address, not booked yet:
    `window` is its earliest and latest times (local to the address)."""
    return call(
        "ask for the pickup",
        client().pickup.create,
        shipment={"id": shipment_id},
        address={"id": address_id},
        min_datetime=window[0],
        max_datetime=window[1],
        is_account_address=False,
        reference=reference,
        instructions="A parcel that needs an adult's signature; it is handed over in person.",
    )


def retrieve_pickup(pickup_id: str) -> dict:
    """A pickup as the provider holds it now (booked or not)."""
    return call("read the pickup", client().pickup.retrieve, pickup_id)


def buy_pickup(pickup_id: str, rate: dict) -> dict:
    """Book the pickup at one of its rates (its carrier and service)."""
    return call("book the pickup", client().pickup.buy, pickup_id, carrier=rate["carrier"],
                service=rate["service"])  # fmt: skip


def cancel_pickup(pickup_id: str) -> dict:
    """Call a booked pickup off."""
    return call("cancel the pickup", client().pickup.cancel, pickup_id)


def chosen_rate(shipment: dict) -> dict:
    """The rate to buy: MAILIN_SERVICE on the carrier account if set, else its cheapest;
    ProviderError if the account offers none."""
    config = current_app.config
    rates = [
        rate for rate in shipment.get("rates") or ()
        if rate.get("carrier_account_id") == config["MAILIN_CARRIER_ACCOUNT"]
        and (not config["MAILIN_SERVICE"] or rate.get("service") == config["MAILIN_SERVICE"])
    ]  # fmt: skip
    if not rates:
        wanted = config["MAILIN_SERVICE"] or "any service"
        raise ProviderError(f"the carrier account offers no rate for {wanted} on this parcel")
    return min(rates, key=lambda rate: float(rate["rate"]))
