"""Which guide entry a seller's brand and model text name (docs/prices.md, "Matching"). One
entry, or none: an ambiguous text gives no number, never a range stretched over several.

1. By reference: an entry matches when its reference appears in the text whole, whatever
   separators the seller typed inside it ("126610 ln", "126610-LN", "sub 126610LN"), and not
   glued to other letters or digits ("1266100" names nothing). The longest reference found
   wins (two of that length: ambiguous). A digit run that only begins references ("126610",
   for 126610LN and 126610LV) names none of them: the text is ambiguous.
2. Otherwise by name: an entry matches when every word of one of its names is in the text
   ("no date" counts as one word, so "Submariner no date" is not "Submariner Date"; the brand,
   numbers and words such as "box" or "original" are not counted). The entry
   whose matching names cover the most words wins. The text is ambiguous when two entries tie,
   or when its words are only part of another entry's name ("Submariner" alone could be any
   Submariner).

A Catalog holds one brand's entries ready for this (their reference keys, their names' words
and which entries use each word), so a lookup costs a few dictionary reads, whatever the size
of the guide. It knows nothing of Flask: app/prices/index.py keeps one per brand per process.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from app.prices.guide import key, names_of

MAX_REFERENCE = 24  # characters of a reference key; longer runs of the text are not looked up
# Words that say nothing about which watch it is.
FILLER = frozenset({"a", "an", "the", "my", "watch", "with", "without", "no", "and", "ref",
                    "reference", "model", "box", "papers", "original", "full", "set"})  # fmt: skip
NO_DATE = re.compile(r"\bno[\s\-]*date\b")


@dataclass(frozen=True)
class Match:
    """The entry the text names, or None; `how` says why ('reference', 'name', 'ambiguous',
    'none'), `candidates` holds the entries an ambiguous text could mean, and `begun` the digit
    runs of the text that only begin their references (empty when the text is ambiguous
    otherwise), so staff can be told what the text is to the guide."""

    entry: dict | None
    how: str
    candidates: tuple[dict, ...] = field(default=())
    begun: tuple[str, ...] = field(default=())


NONE = Match(None, "none")


def words(text: str) -> frozenset[str]:
    """The text's words, lower case, 'no date' as the one word 'nodate'."""
    return frozenset(re.findall(r"[a-z0-9]+", NO_DATE.sub("nodate", text.lower())))


def segments(text: str) -> list[str]:
    """The text's runs of letters and digits, upper case, in order."""
    return re.findall(r"[0-9A-Z]+", text.upper())


def typed_keys(text: str) -> set[str]:
    """Every run of consecutive segments joined ('SUB', 'SUB126610', '126610LN', ...): the keys
    a reference typed with any separators inside it would have."""
    parts, found = segments(text), set()
    for start in range(len(parts)):
        joined = ""
        for part in parts[start:]:
            joined += part
            if len(joined) > MAX_REFERENCE:
                break
            found.add(joined)
    return found


class Catalog:
    """One brand's entries, indexed for matching."""

    def __init__(self, brand: str, entries: list[dict]):
        self.brand_words = words(brand)
        self.by_key = {key(entry["reference"]): entry for entry in entries}
        self.sorted_keys = sorted(self.by_key)
        self.names = {entry["id"]: [words(name) for name in names_of(entry)] for entry in entries}
        self.by_id = {entry["id"]: entry for entry in entries}
        self.by_word: dict[str, set[int]] = {}
        for entry_id, names in self.names.items():
            for word in set().union(*names) if names else ():
                self.by_word.setdefault(word, set()).add(entry_id)

    def by_reference(self, text: str) -> Match | None:
        """The entry whose reference the text holds whole (the longest), or None."""
        found = [self.by_key[typed] for typed in typed_keys(text) if typed in self.by_key]
        if not found:
            return None
        longest = max(len(key(entry["reference"])) for entry in found)
        best = tuple(entry for entry in found if len(key(entry["reference"])) == longest)
        return Match(best[0], "reference") if len(best) == 1 else Match(None, "ambiguous", best)

    def beginning_with(self, run: str) -> list[dict]:
        """The entries whose reference key starts with `run`, in the keys' order."""
        at = bisect.bisect_left(self.sorted_keys, run)
        found = []
        while at < len(self.sorted_keys) and self.sorted_keys[at].startswith(run):
            found.append(self.by_key[self.sorted_keys[at]])
            at += 1
        return found

    def begun(self, text: str) -> Match | None:
        """Ambiguous when digit runs of the text only begin references: the entries whose
        reference they begin, and those runs; None when no run begins one."""
        leading = {re.match(r"[0-9]*", part)[0] for part in segments(text)}
        found, runs = [], []
        for run in sorted(run for run in leading if len(run) >= 4):
            if entries := self.beginning_with(run):
                found += entries
                runs.append(run)
        return Match(None, "ambiguous", tuple(found), tuple(runs)) if found else None

    def by_name(self, text: str) -> Match:
        """The entry whose names cover the most of the text's words, or ambiguous, or none."""
        said = {word for word in words(text) - self.brand_words - FILLER if not word.isdigit()}
        ids = set().union(*(self.by_word.get(word, set()) for word in said)) if said else set()
        covered, partial = {}, []
        for entry_id in sorted(ids):
            names = self.names[entry_id]
            matched = [name for name in names if name and name <= said]
            if matched:
                covered[entry_id] = len(frozenset().union(*matched))
            elif any(said < name for name in names):
                partial.append(self.by_id[entry_id])
        if not covered:
            return Match(None, "ambiguous", tuple(partial)) if partial else NONE
        most = max(covered.values())
        best = tuple(self.by_id[entry_id] for entry_id, score in covered.items() if score == most)
        if len(best) == 1 and not partial:
            return Match(best[0], "name")
        return Match(None, "ambiguous", best + tuple(partial))

    def match(self, text: str) -> Match:
        """The one entry `text` (the sell form's model field) names, if any."""
        if not text.strip():
            return NONE
        if found := self.by_reference(text):
            return found
        if begun := self.begun(text):
            return begun
        return self.by_name(text)


def catalogs(entries: list[dict]) -> dict[str, Catalog]:
    """A Catalog per brand of `entries`."""
    brands: dict[str, list[dict]] = {}
    for entry in entries:
        brands.setdefault(entry["brand"], []).append(entry)
    return {brand: Catalog(brand, mine) for brand, mine in brands.items()}
