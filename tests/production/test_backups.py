"""The restore drill: the nightly backup, run as deploy/watchbuyers-backup.service runs it
against the live production shape, restored into a fresh instance, where a lead, its photos and
its seller's status link all open."""

from __future__ import annotations

import subprocess

from PIL import Image

from app import create_app
from tests.data.photos import write_photos
from tests.helpers import PRODUCTION, ROOT, SITE, wait_until
from tests.production.steps import lead_by_email, leads_db, submit_lead
from tests.production.units import unit_commands


def cleaned_photos(site, lead_id: int) -> list[str]:
    with leads_db(site) as db:
        rows = db.execute("SELECT image_name FROM lead_photos WHERE lead_id = ?", (lead_id,))
        return [row["image_name"] for row in rows]


def test_the_nightly_backup_restores_into_a_fresh_instance(site, tmp_path):
    photos = write_photos(tmp_path, 2, size=(1200, 900))
    email = "drill.seller@example.com"
    path = submit_lead(site, email, tuple(photos), fullName="Ruth Drill")
    lead = lead_by_email(site, email)
    names = wait_until(
        lambda: all(cleaned_photos(site, lead["id"])) and cleaned_photos(site, lead["id"])
    )
    backups = tmp_path / "backups"

    [command] = unit_commands("watchbuyers-backup.service")
    done = subprocess.run(command, cwd=ROOT, env={**site.env, "BACKUP_DIR": str(backups)},
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "photo files" in done.stdout

    fresh = tmp_path / "fresh"
    restored = site.flask(
        "leads", "restore", LEADS_DB=str(fresh / "leads.db"), BACKUP_DIR=str(backups)
    )
    assert "Restored" in restored
    shown = site.flask("leads", "show", str(lead["id"]), LEADS_DB=str(fresh / "leads.db"))
    assert "Ruth Drill" in shown and email in shown
    for name in names:
        with Image.open(fresh / "storage" / "watch-photos" / name) as image:
            assert image.size[0] > 0
    restored_db = {"CONTENT_DB": site.env["CONTENT_DB"], "LEADS_DB": str(fresh / "leads.db")}
    app = create_app({**PRODUCTION, "RATELIMIT_SINGLE_PROCESS": "1", **restored_db})
    page = app.test_client().get(path, base_url=SITE)
    assert page.status_code == 200 and lead["reference"] in page.get_data(as_text=True)
