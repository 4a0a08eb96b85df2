"""A deal's label is bought once, however often it is asked for: three clicks, a retried job
after a 500 or a time-out, two workers at once. The provider's refusals come back in its own
words; a watch above the policy's limit gets no label."""

from __future__ import annotations

import threading

import pytest

from app.leads import history
from app.leads.db import get_db
from app.shipping import easypost_api, labels
from app.shipping.easypost_api import ProviderError
from tests.helpers import lead_work_done
from tests.shipping.fake_easypost import CARRIER_ACCOUNT, label_url
from tests.shipping.steps import deliver, mailin_settings, parcel_on_record, tracking_event


def label_events(app, lead_id: int) -> list[dict]:
    with app.app_context():
        return [e for e in history.lead_events(lead_id) if e["kind"] == "shipment_label_bought"]


def test_three_clicks_on_one_deal_record_one_parcel_and_buy_one_label(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    with mailin_app.app_context():
        row = labels.get(shipment_id)
        again = labels.open_shipment(row["lead_id"], "inbound", row["deal_event_id"], 18500,
                                     "adr_seller_1")  # fmt: skip
        assert again == shipment_id
        bought = [labels.buy_label(shipment_id) for _ in range(3)]
        assert get_db().execute("SELECT count(*) FROM shipments").fetchone()[0] == 1
    assert easypost.bought() == 1
    assert {row["tracking_code"] for row in bought} == {bought[0]["tracking_code"]}
    assert bought[0]["state"] == "label_ready" and bought[0]["rate_cents"] == 1420  # cheapest
    assert len(label_events(mailin_app, row["lead_id"])) == 1


def test_the_labels_image_is_left_with_the_provider_not_kept_here(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    with mailin_app.app_context():
        parcel = labels.buy_label(shipment_id)
        kept = [str(value) for row in get_db().execute("SELECT * FROM shipments") for value in row]
    image = label_url(parcel["provider_shipment_id"])  # the seller's name and address on it
    assert image.startswith("https://") and image not in kept and "label_url" not in parcel


def test_a_500_leaves_the_shipment_on_record_and_the_retry_buys_one_label(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    easypost.plan("buy", 500)
    with mailin_app.app_context():
        with pytest.raises(ProviderError, match="something went wrong") as refused:
            labels.buy_label(shipment_id)
        assert refused.value.status == 500
        waiting = labels.get(shipment_id)
        assert waiting["state"] == "created" and waiting["provider_shipment_id"]
        done = labels.buy_label(shipment_id)
    assert done["provider_shipment_id"] == waiting["provider_shipment_id"]  # no second shipment
    assert [r["action"] for r in easypost.requests].count("create") == 1
    assert easypost.bought() == 1 and done["state"] == "label_ready"


def test_a_time_out_after_the_purchase_takes_the_label_bought_instead_of_buying_again(
    mailin_app, easypost
):
    shipment_id = parcel_on_record(mailin_app)
    easypost.plan("buy", "slow")  # bought at the provider, answered after the client gave up
    with mailin_app.app_context():
        done = labels.buy_label(shipment_id)
    assert easypost.bought() == 1 and done["tracking_code"] and done["state"] == "label_ready"
    assert [r["action"] for r in easypost.requests] == ["create", "retrieve", "buy", "retrieve"]


def test_two_workers_at_once_buy_one_label(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    barrier, results = threading.Barrier(2), []

    def worker():
        with mailin_app.app_context():
            barrier.wait()
            results.append(labels.buy_label(shipment_id)["tracking_code"])

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert easypost.bought() == 1
    assert len(results) == 2 and len(set(results)) == 1


def test_a_late_label_record_never_moves_the_parcel_back(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    with mailin_app.app_context():
        slow_runners_row = labels.get(shipment_id)  # read before any label was bought
        bought = labels.buy_label(shipment_id)  # by the other runner, first
    deliver(mailin_app.test_client(), tracking_event(bought["tracking_code"], "in_transit"))
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        taken = easypost_api.retrieve_shipment(bought["provider_shipment_id"])
        labels.record_label(slow_runners_row, taken)  # the slow runner records what it took
        row = labels.get(shipment_id)
    assert row["state"] == "in_transit" and row["first_scan_at"]
    assert len(label_events(mailin_app, row["lead_id"])) == 1


def test_a_second_runners_shipment_never_replaces_the_one_on_record(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    with mailin_app.app_context():
        as_read = labels.get(shipment_id)  # both runners read the row before either stored an id
        first = labels.create_once(as_read)
        second = labels.create_once(as_read)
        assert second == first == labels.get(shipment_id)["provider_shipment_id"]
        assert labels.buy_label(shipment_id)["provider_shipment_id"] == first
    assert [r["action"] for r in easypost.requests].count("create") == 2
    assert easypost.bought() == 1


def test_a_refused_key_is_said_in_the_providers_words_and_nothing_is_stored(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    easypost.plan("create", 401)
    with mailin_app.app_context():
        with pytest.raises(ProviderError, match="Invalid or missing API key"):
            labels.buy_label(shipment_id)
        assert labels.get(shipment_id)["provider_shipment_id"] is None
    assert easypost.bought() == 0


def test_an_answer_that_is_not_json_is_an_error_for_staff_not_a_label(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    easypost.plan("create", "garbage")
    with mailin_app.app_context():
        with pytest.raises(ProviderError, match="could not create the shipment"):
            labels.buy_label(shipment_id)
        assert labels.get(shipment_id)["state"] == "created"
        assert labels.buy_label(shipment_id)["state"] == "label_ready"  # the retry buys it
    assert easypost.bought() == 1


def test_the_label_asks_an_adult_signature_and_says_nothing_of_a_watch(mailin_app, easypost):
    shipment_id = parcel_on_record(mailin_app)
    with mailin_app.app_context():
        labels.buy_label(shipment_id)
        reference = get_db().execute("SELECT reference FROM leads").fetchone()[0]
    [create] = [r for r in easypost.requests if r["action"] == "create"]
    sent = create["body"]["shipment"]
    assert sent["options"] == {"delivery_confirmation": "ADULT_SIGNATURE"}
    assert sent["carrier_accounts"] == [CARRIER_ACCOUNT]
    assert sent["from_address"] == {"id": "adr_seller_1"}
    assert (
        sent["to_address"]["street1"] == "41 Orchard Street"
        and sent["to_address"]["zip"] == "10002"
    )
    assert sent["reference"] == f"{reference}-inbound"
    assert "watch" not in str(sent).lower() and "rolex" not in str(sent).lower()
    assert create["authorization"] == "Bearer EZTK-test-4f0c"
    [buy] = [r for r in easypost.requests if r["action"] == "buy"]
    assert "insurance" not in buy["body"]  # the business's own policy covers, not the carrier


def test_the_service_bought_is_the_setting(make_app, easypost):
    app = make_app(**mailin_settings(easypost, MAILIN_SERVICE="2ndDayAir"))
    shipment_id = parcel_on_record(app)
    with app.app_context():
        row = labels.buy_label(shipment_id)
    assert row["service"] == "2ndDayAir" and row["rate_cents"] == 3875


def test_a_watch_above_the_policys_limit_gets_no_parcel(mailin_app):
    with pytest.raises(labels.OverTheLimit, match=r"\$25,001 is above the policy's \$25,000"):
        parcel_on_record(mailin_app, insured_value=25_001)
    with mailin_app.app_context():
        assert get_db().execute("SELECT count(*) FROM shipments").fetchone()[0] == 0
