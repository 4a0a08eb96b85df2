"""The record of erasures in the replica (app/replica/erasure_log.py): one object per entry,
encrypted with this deployment's key, and an entry the storage refused stored by the next
catch-up, as the files' copies are."""

from __future__ import annotations

import base64
import json

from app.replica import erasure_log, objects
from app.sale import erasure
from tests.helpers import lead_work_done, save_sample_lead
from tests.replica.steps import bucket_of, md5_of, sent_encryption, storage_back


def erase_a_lead(app) -> int:
    """A lead closed and erased by staff, its copy job done; its id."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:1")
    lead_work_done(app)
    return lead_id


def test_each_erasure_is_an_object_of_its_own_written_and_read_with_this_deployments_key(
    replica_app, object_storage
):
    object_storage.start_recording()
    lead_id = erase_a_lead(replica_app)
    with replica_app.app_context():
        [stored] = objects.erasure_entries()
    [key] = object_storage.keys(bucket_of(replica_app), "watchbuyers/erasures/")
    sent = [r for r in object_storage.recorded() if r["url"].endswith(key.split("/")[-1])]
    assert sorted(request["method"] for request in sent) == ["GET", "PUT"]
    secret = base64.b64decode(replica_app.config["REPLICA_ENCRYPTION_KEY"])
    assert {sent_encryption(request) for request in sent} == {("AES256", md5_of(secret))}
    entry = json.loads(stored)
    assert (entry["lead_id"], entry["erased"], entry["by"]) == (lead_id, "closed_lead", "staff")


def test_an_entry_the_storage_refused_is_stored_by_the_next_replication_check(
    make_app, replica_settings, object_storage
):
    down = make_app(**replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"})
    lead_id = erase_a_lead(down)
    with down.app_context():
        assert erasure_log.leads_owing() == [lead_id]
    storage_back(down, replica_settings)

    result = down.test_cli_runner().invoke(args=["leads", "replication", "check"])

    assert result.exit_code == 0, result.output
    with down.app_context():
        assert erasure_log.owed() == []
    assert len(object_storage.keys(bucket_of(down), "watchbuyers/erasures/")) == 1


def test_the_requeue_queues_the_copy_of_an_entry_still_owed(make_app, replica_settings):
    down = make_app(**replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"})
    lead_id = erase_a_lead(down)
    storage_back(down, replica_settings)
    result = down.test_cli_runner().invoke(args=["leads", "requeue"])
    assert f"Queued the replica copy of lead #{lead_id}'s erasure entry." in result.output
    lead_work_done(down)
    with down.app_context():
        assert erasure_log.owed() == []
