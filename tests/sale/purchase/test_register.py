"""The transaction register's CSV: a seller's text never becomes a spreadsheet formula."""

from __future__ import annotations

import csv
import io

import pytest

from app.sale.purchase import register
from tests.helpers import FORMULA_OPENINGS


@pytest.mark.parametrize("opening", FORMULA_OPENINGS.values(), ids=FORMULA_OPENINGS.keys())
def test_a_register_cell_opening_with_any_formula_character_is_written_as_text(opening):
    typed = {key: f'{opening}HYPERLINK("http://evil.example")' for key, _ in register.COLUMNS}
    text = register.csv_text([typed])
    [row] = list(csv.reader(io.StringIO(text, newline="")))[1:]
    assert row == [f"'{typed[key]}" for key, _ in register.COLUMNS]
