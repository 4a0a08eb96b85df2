"""The systemd units in deploy/ as the tests run them: each command of a unit, its placeholders
filled for this checkout, exactly as `envsubst` fills them on a server."""

from __future__ import annotations

import shlex
import string

from tests.helpers import ROOT


def unit_commands(unit: str, directive: str = "ExecStart", instance: str = "") -> list[list[str]]:
    """The commands of `directive` (ExecStart, ExecStartPre) in deploy/<unit>, for one
    `instance` of a template unit (its %i)."""
    text = (ROOT / "deploy" / unit).read_text().replace("%i", instance)
    filled = string.Template(text).safe_substitute(CHECKOUT=ROOT, ENV_FILE="/dev/null")
    prefix = f"{directive}="
    return [shlex.split(line.removeprefix(prefix)) for line in filled.splitlines()
            if line.startswith(prefix)]  # fmt: skip
