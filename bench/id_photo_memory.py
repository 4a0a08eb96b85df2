"""Peak memory of decoding the largest image the site takes as an ID photo and as a register
certificate: 50 megapixels (PHOTO_MAX_PIXELS, exactly at the limit).

Each decode runs in a fresh Python process, which reads the file's bytes and makes the app
first; the figure printed is the process's peak RSS during the decode (VmHWM, reset through
/proc/self/clear_refs just before) above its RSS then. The ID photo goes through
`clean_id_photo` (the paperwork's, the mail ID step's and staff's arrival photos), the
certificate through `certificate_type` (a staff upload, or the register's answer). The images:
a 10,000 x 5,000 RGBA PNG and an RGB JPEG of the same size, a 5,999 px square RGBA PNG, drawn
with a few shapes so they compress as a photographed card does (within PHOTO_MAX_BYTES), and
the 50 MP PNG one row taller (over the limit: refused).

    .venv/bin/python bench/id_photo_memory.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
SIZE = (10_000, 5_000)  # 50,000,000 pixels: PHOTO_MAX_PIXELS

CHILD = """
import sys, tempfile
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from app import create_app
from app.sale.purchase.paperwork import UnreadablePhoto, clean_id_photo
from app.sale.purchase.stolen_register import certificate_type

def status_kb(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])

folder = tempfile.mkdtemp()
app = create_app({"ENV_NAME": "testing", "LEADS_DB": folder + "/leads.db"})
data = Path(sys.argv[3]).read_bytes()
with app.app_context():
    Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here
    before = status_kb("VmRSS")
    try:
        if sys.argv[2] == "id":
            result = f"a JPEG of {len(clean_id_photo(data)):,} bytes"
        else:
            result = str(certificate_type(data))
    except UnreadablePhoto as error:
        result = f"refused ({error})"
    peak = status_kb("VmHWM")
print(max(peak - before, 0) // 1024, result)
"""


def draw(size: tuple[int, int], mode: str) -> Image.Image:
    """A card-like picture: a plain ground, a few blocks and lines."""
    image = Image.new(mode, size, "white")
    pen = ImageDraw.Draw(image)
    width, height = size
    for step in range(0, 40):
        left, top = step * width // 40, (step * 37 % 40) * height // 40
        pen.rectangle(
            (left, top, left + width // 12, top + height // 20), fill=(20 * step % 255, 90, 160)
        )
        pen.line((0, step * height // 40, width, step * height // 40), fill=(10, 10, 10), width=3)
    return image


def measure(kind: str, path: Path) -> str:
    """Peak MB above the baseline and what the decode gave, from a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT), kind, str(path)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        files = {
            "PNG, RGBA, 36 MP (5999 px)": Path(folder) / "square.png",
            "PNG, RGBA, 50 MP": Path(folder) / "card.png",
            "JPEG, RGB, 50 MP": Path(folder) / "card.jpg",
            "PNG, RGBA, 50 MP + one row": Path(folder) / "over.png",
        }
        draw((5999, 5999), "RGBA").save(files["PNG, RGBA, 36 MP (5999 px)"])
        draw(SIZE, "RGBA").save(files["PNG, RGBA, 50 MP"])
        draw(SIZE, "RGB").save(files["JPEG, RGB, 50 MP"], quality=90)
        draw((SIZE[0], SIZE[1] + 1), "RGBA").save(files["PNG, RGBA, 50 MP + one row"])
        print(f"{'image':30} {'bytes':>12}  {'as':12} {'peak MB':>8}  result")
        for name, path in files.items():
            for kind in ("id", "certificate"):
                peak, result = measure(kind, path).split(" ", 1)
                label = "ID photo" if kind == "id" else "certificate"
                print(f"{name:30} {path.stat().st_size:>12,}  {label:12} {peak:>8}  {result}")


if __name__ == "__main__":
    main()
