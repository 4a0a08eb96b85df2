"""The restore drill: the nightly backup, run as deploy/watchbuyers-backup.service runs it
against the live production shape, restored into a fresh instance, where a lead, its photos and
its seller's status link all open, and where a seller who had their details erased after the
backup stays erased: the new machine has no record of erasures of its own, and reads the
replica's."""

from __future__ import annotations

import subprocess

from PIL import Image

from app import create_app
from tests.data.photos import write_photos
from tests.front import HttpsClient
from tests.helpers import PRODUCTION, ROOT, SITE, wait_until
from tests.production.steps import (
    ERASURE_PATH,
    lead_by_email,
    leads_db,
    link_in,
    mail_to,
    submit_lead,
)
from tests.production.units import unit_commands


def cleaned_photos(site, lead_id: int) -> list[str]:
    with leads_db(site) as db:
        rows = db.execute("SELECT image_name FROM lead_photos WHERE lead_id = ?", (lead_id,))
        return [row["image_name"] for row in rows]


def withdraw_and_erase(site, path: str, email: str) -> None:
    """The seller withdraws from their status page asking for their details to go, and confirms
    it from the link e-mailed to them; the erasure done."""
    seller = HttpsClient(site.front)
    form = {"csrf_token": seller.form_token(path), "confirm": "yes", "erase": "yes"}
    assert seller.post(path + "/withdraw", form, {"Referer": site.url + path}).status == 303
    link = link_in(mail_to(site, email, "Confirm: delete")[0], ERASURE_PATH)
    form = {"csrf_token": seller.form_token(link)}
    assert seller.post(link, form, {"Referer": site.url + link}).status == 303
    wait_until(lambda: lead_by_email(site, email) is None, timeout=30)


def test_the_nightly_backup_restores_into_a_fresh_instance(site, tmp_path):
    photos = write_photos(tmp_path, 2, size=(1200, 900))
    email = "drill.seller@example.com"
    path = submit_lead(site, email, tuple(photos), fullName="Ruth Drill")
    lead = lead_by_email(site, email)
    names = wait_until(
        lambda: all(cleaned_photos(site, lead["id"])) and cleaned_photos(site, lead["id"])
    )
    gone = "gone.drill@example.com"
    gone_path = submit_lead(site, gone, fullName="Vera Gone")
    backups = tmp_path / "backups"

    [command] = unit_commands("watchbuyers-backup.service")
    done = subprocess.run(command, cwd=ROOT, env={**site.env, "BACKUP_DIR": str(backups)},
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "photo files" in done.stdout
    withdraw_and_erase(site, gone_path, gone)  # after the backup, before the machine is lost

    fresh = tmp_path / "fresh"
    restored = site.flask(
        "leads", "restore", LEADS_DB=str(fresh / "leads.db"), BACKUP_DIR=str(backups)
    )
    assert "Restored" in restored and "Re-applied 1 erasures" in restored
    assert "Vera Gone" not in site.flask("leads", "list", LEADS_DB=str(fresh / "leads.db"))
    assert site.front.request("GET", gone_path).status == 404
    shown = site.flask("leads", "show", str(lead["id"]), LEADS_DB=str(fresh / "leads.db"))
    assert "Ruth Drill" in shown and email in shown
    for name in names:
        with Image.open(fresh / "storage" / "watch-photos" / name) as image:
            assert image.size[0] > 0
    restored_db = {"CONTENT_DB": site.env["CONTENT_DB"], "LEADS_DB": str(fresh / "leads.db")}
    app = create_app({**PRODUCTION, "RATELIMIT_SINGLE_PROCESS": "1", **restored_db})
    page = app.test_client().get(path, base_url=SITE)
    assert page.status_code == 200 and lead["reference"] in page.get_data(as_text=True)
