"""What the guide does for each answer of the sell form: the range is set for a watch in very
good condition with box and papers; each other condition grade has its own adjustment (none set:
no instant range for that grade), and a missing box or missing papers one each, in percent."""

from __future__ import annotations

import math

BASELINE = "Very Good - Minor wear"
# The sell form's grade -> the guide's column holding its adjustment (the baseline has none).
GRADE_COLUMNS = {
    "Excellent - Like new": "excellent",
    BASELINE: None,
    "Good - Moderate wear": "good",
    "Fair - Significant wear": "fair",
    "Needs Service/Repair": "needs_service",
}
# How the seller's line names each grade.
GRADE_PHRASES = {
    "Excellent - Like new": "in excellent condition",
    BASELINE: "in very good condition",
    "Good - Moderate wear": "in good condition",
    "Fair - Significant wear": "in fair condition",
    "Needs Service/Repair": "needing service",
}
ROUND_TO = 50  # dollars: a range reads as the business would say it


def rounded(dollars: float) -> int:
    """Whole dollars to the nearest ROUND_TO, halves up."""
    return math.floor(dollars / ROUND_TO + 0.5) * ROUND_TO


def factor(entry: dict, condition: str, has_box: bool, has_papers: bool) -> float | None:
    """What the base range is multiplied by for this watch; None when the entry sets no
    adjustment for its grade (or the grade is not one of the form's)."""
    if condition not in GRADE_COLUMNS:
        return None
    column = GRADE_COLUMNS[condition]
    grade = 0 if column is None else entry.get(column)
    if grade is None:
        return None
    percent = [grade, 0 if has_box else entry["no_box"], 0 if has_papers else entry["no_papers"]]
    result = 1.0
    for each in percent:
        result *= 1 + each / 100
    return result


def adjusted(
    entry: dict, condition: str, has_box: bool, has_papers: bool
) -> tuple[int, int] | None:
    """The entry's range for this watch, rounded; None when the guide gives none for it."""
    multiplier = factor(entry, condition, has_box, has_papers)
    if multiplier is None or multiplier <= 0:
        return None
    return rounded(entry["low"] * multiplier), rounded(entry["high"] * multiplier)


def described(condition: str, has_box: bool, has_papers: bool) -> str:
    """'in very good condition with box and papers', as the seller's line says it."""
    if has_box and has_papers:
        extras = "with box and papers"
    elif has_box or has_papers:
        extras = f"with {'box' if has_box else 'papers'}, without {'papers' if has_box else 'box'}"
    else:
        extras = "without box or papers"
    return f"{GRADE_PHRASES.get(condition, '')} {extras}".strip()
