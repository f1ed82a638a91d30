"""absita's aspect terms and how a review's predicted terms match its gold terms: exact matches
first, then partial matches (a shared word; for (term, polarity) pairs, the same polarity too)
among the rest, one-to-one (``machinery.matching.maximum_matching``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, FrozenSet, Hashable, Sequence, Set, Tuple

from ...machinery.matching import maximum_matching

_WORD = re.compile(r"\w+")


def normalise(term: str) -> str:
    """Lower-cased, white space collapsed: ``"Mantenere  la Temperatura"`` -> ``"mantenere la temperatura"``."""
    return " ".join(term.lower().split())


@lru_cache(maxsize=65536)
def words(term: str) -> FrozenSet[str]:
    return frozenset(_WORD.findall(term.lower()))


class TermCounts:
    """Sufficient statistics of the ATE (or ABSA) measure for any group of reviews."""

    def __init__(self, exact: int = 0, partial: int = 0, predicted: int = 0, gold: int = 0) -> None:
        self.exact = exact
        self.partial = partial
        self.predicted = predicted
        self.gold = gold

    def __repr__(self) -> str:
        return "TermCounts(exact=%d, partial=%d, predicted=%d, gold=%d)" % (
            self.exact, self.partial, self.predicted, self.gold)

    def add(self, other: "TermCounts") -> None:
        self.exact += other.exact
        self.partial += other.partial
        self.predicted += other.predicted
        self.gold += other.gold


def partner_counts(partners: Dict[Hashable, Tuple[str, Hashable]], predicted: Set[Hashable],
                   gold: Set[Hashable]) -> TermCounts:
    """``TermCounts`` of the matching ``partners`` (``term_partners``) between ``predicted`` and ``gold``."""
    partial = sum(1 for kind, _ in partners.values() if kind == "partial")
    return TermCounts(len(partners) - partial, partial, len(predicted), len(gold))


def _share_word(a, b) -> bool:
    """Terms (or (term, polarity) pairs) that share a word; pairs also need the same polarity."""
    if isinstance(a, tuple):
        return a[1] == b[1] and _share_word(a[0], b[0])
    return not words(a).isdisjoint(words(b))


def term_partners(predicted: Set[Hashable], gold: Set[Hashable]) -> Dict[Hashable, Tuple[str, Hashable]]:
    """Each matched predicted term (or pair) -> ("exact" or "partial", its gold partner): exact
    matches first, then a maximum one-to-one partial matching of the rest."""
    exact = predicted & gold
    partners: Dict[Hashable, Tuple[str, Hashable]] = {term: ("exact", term) for term in exact}
    rest_predicted = sorted(predicted - exact, key=repr)
    rest_gold = sorted(gold - exact, key=repr)
    if rest_predicted and rest_gold:
        for j, i in enumerate(maximum_matching(rest_gold, rest_predicted, _share_word)):
            if i is not None:
                partners[rest_predicted[j]] = ("partial", rest_gold[i])
    return partners


def term_matches(predicted: Sequence[Hashable], gold: Sequence[Hashable]
                 ) -> Tuple[Dict[Hashable, str], Dict[Hashable, str]]:
    """How each distinct predicted and gold term matched, as the scores count them: "exact" or
    "partial" (one-to-one: ``term_partners``); unmatched terms are not keys."""
    partners = term_partners(set(predicted), set(gold))
    return ({term: kind for term, (kind, _) in partners.items()},
            {partner: kind for kind, partner in partners.values()})
