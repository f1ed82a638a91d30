"""Track ``absita``: EVALITA 2020 ATE_ABSITA, aspect terms, their polarity, and the review score.

- ATE: per review, sets of normalised terms; exact matches, then partial matches (a shared word)
  among the rest, one-to-one (a maximum matching); pooled over reviews,
  P = (Σexact + 0.5·ΣPAR) / Σ|S|, R = (Σexact + 0.5·ΣPAR) / Σ|G|, F1 their harmonic mean.
- ABSA: the same over (term, polarity) pairs; a partial match also needs the same polarity.
- SA: root mean squared error of the review score (lower is better).

Metric card: ``absita.md`` beside this file.
"""

from __future__ import annotations

import math
import os
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Hashable, Iterator, List, Optional, Sequence, Set, Tuple

from ..readers.options import Options, other_phase_ids
from ..machinery.per_item import ItemStatistics, ScalarOps, Totals
from ..readers.problems import Problems, clip, describe, reading_reference
from ..readers.ndjson import iter_ndjson
from ..readers.text_lines import MAX_LINE_BYTES
from ..readers.records import check_duplicates, check_id_sets, record_limit
from ..readers.result import ItemView, TrackResult

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

NAME = "absita"
FILE_NAME = "evalita2020_absita.ndjson"
TITLE = "EVALITA 2020 ATE_ABSITA: aspect terms, aspect polarity, review score"
GOLD_NAMES = (FILE_NAME,)
KEYS = ("ate_f1", "ate_precision", "ate_recall", "absa_f1", "absa_precision", "absa_recall",
        "sa_rmse")
LOWER_IS_BETTER = frozenset({"sa_rmse"})
# The three subtasks of EVALITA 2020.
LEADERBOARDS = ((NAME, "ate_f1"), ("absita_absa", "absa_f1"), ("absita_sa", "sa_rmse"))
RELEASED_GOLD = {"train": "ate_absita_training.ndjson", "dev": "ate_absita_dev.ndjson"}
ID_FIELD = "id_sentence"
_WORD = re.compile(r"\w+")

Polarity = Tuple[int, int]  # [positive, negative]: (1,0) pos, (0,1) neg, (0,0) neutral, (1,1) mixed


class Review:
    """One review of a file: its line, id, and the fields it has (None: not given)."""

    __slots__ = ("line", "identifier", "aspects", "polarities", "score")

    def __init__(self, line: int, identifier: str, aspects: Optional[List[str]] = None,
                 polarities: Optional[List[Polarity]] = None, score: Optional[float] = None) -> None:
        self.line = line
        self.identifier = identifier
        self.aspects = aspects
        self.polarities = polarities
        self.score = score


def normalise(term: str) -> str:
    """Lower-cased, white space collapsed: ``"Mantenere  la Temperatura"`` -> ``"mantenere la temperatura"``."""
    return " ".join(term.lower().split())


@lru_cache(maxsize=65536)
def words(term: str) -> FrozenSet[str]:
    return frozenset(_WORD.findall(term.lower()))


def maximum_matching(left: Sequence[Hashable], right: Sequence[Hashable],
                     compatible) -> int:
    """Size of a maximum one-to-one matching between ``left`` and ``right`` (augmenting paths)."""
    return sum(1 for owner in matching(left, right, compatible) if owner is not None)


def matching(left: Sequence[Hashable], right: Sequence[Hashable], compatible) -> List[Optional[int]]:
    """A maximum one-to-one matching: for each element of ``right``, the index in ``left`` of its
    partner, or None."""
    adjacency = [[j for j, b in enumerate(right) if compatible(a, b)] for a in left]
    owner: List[Optional[int]] = [None] * len(right)
    for i in range(len(left)):
        if adjacency[i]:
            _augment(i, set(), adjacency, owner)
    return owner


def _augment(i: int, seen: Set[int], adjacency: List[List[int]], owner: List[Optional[int]]) -> bool:
    # A module function, not a closure: a recursive closure is a reference cycle, which the
    # program (garbage collector off) would never free, one per review.
    for j in adjacency[i]:
        if j not in seen:
            seen.add(j)
            if owner[j] is None or _augment(owner[j], seen, adjacency, owner):  # type: ignore[arg-type]
                owner[j] = i
                return True
    return False


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


def term_counts(predicted: Set[Hashable], gold: Set[Hashable], compatible) -> TermCounts:
    """The exact and partial matches of ``term_partners`` and the two sides' sizes."""
    return partner_counts(term_partners(predicted, gold, compatible), predicted, gold)


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


def precision_recall_f1(counts: TermCounts) -> Tuple[float, float, float]:
    """
    >>> precision_recall_f1(TermCounts(exact=1, partial=1, predicted=2, gold=2))
    (0.75, 0.75, 0.75)
    """
    matched = counts.exact + 0.5 * counts.partial
    precision = matched / counts.predicted if counts.predicted else 0.0
    recall = matched / counts.gold if counts.gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


SCORE_OUTSIDE = ("%d review score lies outside 1-5; scored as given (plain RMSE, as official)",
                 "%d review scores lie outside 1-5; scored as given (plain RMSE, as official)")
# clause (c): a score beyond this is refused, which keeps sa_rmse finite and storable by the
# platforms (below 1e10) whatever the gold; a real score lies in 1-5.
MAX_ABS_SCORE = 1e6


def parse_reviews(path: str, name: str, max_bytes: Optional[int], problems: Problems, gold: bool,
                  max_aspects: int, max_reviews: Optional[int] = None) -> Iterator[Review]:
    """The reviews of a JSON Lines file, one at a time (read a block at a time); stops after
    ``max_reviews`` lines or after many problems."""
    for count, (line, value) in enumerate(iter_ndjson(path, name, max_bytes, None if gold else MAX_LINE_BYTES)):
        if problems.entries and problems.saturated:
            return
        if max_reviews is not None and count >= max_reviews:
            problems.add("line %d" % line, "more than %d lines, but this phase has far fewer reviews; give "
                                           "one line per review" % max_reviews)
            return
        where = "line %d" % line
        if not isinstance(value, dict):
            problems.add(where, "expected a JSON object {\"id_sentence\", \"aspects\", \"polarities\", \"score\"}")
            continue
        identifier = value.get(ID_FIELD)
        if not isinstance(identifier, str) or not identifier:
            problems.add(where, "field 'id_sentence' must be a non-empty string" if ID_FIELD in value
                         else "missing field 'id_sentence'")
            continue
        where = "line %d (id_sentence %s)" % (line, clip(identifier))
        review = Review(line, identifier)
        if "aspects" in value:
            aspects = value["aspects"]
            if not isinstance(aspects, list) or not all(isinstance(a, str) and a.strip() for a in aspects):
                problems.add(where, "field 'aspects' must be a list of non-empty strings")
            elif len(aspects) > max_aspects:
                problems.add(where, "%d aspects; at most %d per review are accepted" % (len(aspects), max_aspects))
            else:
                review.aspects = aspects
        elif gold:
            problems.add(where, "missing field 'aspects'")
        if "polarities" in value:
            review.polarities = _polarities(value["polarities"], review.aspects, where, problems)
        elif gold:
            problems.add(where, "missing field 'polarities'")
        if "score" in value:
            score = value["score"]
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
                problems.add(where, "field 'score' must be a finite number, found %s" % describe(score))
            elif not gold and abs(score) > MAX_ABS_SCORE:
                problems.add(where, "field 'score' is %s; scores beyond +-%d are not accepted (a review "
                                    "score lies in 1-5)" % (describe(score), MAX_ABS_SCORE))
            else:
                review.score = float(score)
        elif gold:
            problems.add(where, "missing field 'score'")
        yield review


def _polarities(value: Any, aspects: Optional[List[str]], where: str,
                problems: Problems) -> Optional[List[Polarity]]:
    if not isinstance(value, list):
        problems.add(where, "field 'polarities' must be a list of [positive, negative] pairs")
        return None
    pairs = []
    for number, pair in enumerate(value, start=1):
        if type(pair) is list and len(pair) == 2:
            positive, negative = pair
            # type() is int: JSON true/false (bool) and 1.0 (float) are not polarities
            if type(positive) is int and type(negative) is int and 0 <= positive <= 1 and 0 <= negative <= 1:
                pairs.append((positive, negative))
                continue
            bits = _bit(positive), _bit(negative)
            if None not in bits:  # 1.0 or true: the same polarity, written by another serializer
                problems.warn(POLARITY_NOT_INTEGERS, where)
                pairs.append(bits)  # type: ignore[arg-type]
                continue
        problems.add(where, "polarity %d must be a pair of 0/1 integers like [1, 0], found %s"
                     % (number, describe(pair) if not isinstance(pair, list) else str(pair)[:40]))
        return None
    if aspects is not None and len(pairs) != len(aspects):
        problems.add(where, "%d polarities for %d aspects; give one [positive, negative] pair per aspect"
                     % (len(pairs), len(aspects)))
        return None
    return pairs


POLARITY_NOT_INTEGERS = ("%d polarity is written with 0.0/1.0 or false/true instead of the integers 0/1; "
                         "read as 0/1",
                         "%d polarities are written with 0.0/1.0 or false/true instead of the integers 0/1; "
                         "read as 0/1")


def _bit(value: Any) -> Optional[int]:
    """0 or 1 for a value equal to it that is not the integer itself (0.0, 1.0, false, true)."""
    if type(value) in (bool, float) and value in (0, 1):
        return int(value)
    return None


class FieldPresence:
    """Whether every submitted review has a field: counts, and the first line without it."""

    def __init__(self) -> None:
        self.having = self.lacking = 0
        self.first_lacking = 0

    def add(self, has: bool, line: int) -> None:
        if has:
            self.having += 1
        else:
            self.lacking += 1
            self.first_lacking = self.first_lacking or line

    def consistent(self, field_name: str, problems: Problems) -> bool:
        """Whether every review has the field; a problem when only some have it."""
        if self.having and self.lacking:
            problems.add("line %d" % self.first_lacking, "field %r is missing here but present on other "
                                                          "lines; give it on every line or on none" % field_name)
        return bool(self.having) and not self.lacking


class Statistics:
    """One review's ATE and ABSA counts and its squared score error; ``groups``: the same counts
    by group (``GROUP_TABLES``), column name -> value, nonzero values only."""

    __slots__ = ("ate", "absa", "squared_error", "groups")

    def __init__(self) -> None:
        self.ate = TermCounts()
        self.absa = TermCounts()
        self.squared_error = 0.0
        self.groups: Dict[str, float] = {}


def _statistics(prediction: Review, gold: Review) -> Statistics:
    """One review's statistics for every field the prediction has."""
    statistics = Statistics()
    groups = statistics.groups
    if prediction.aspects is not None:
        predicted_terms = {normalise(a) for a in prediction.aspects}
        gold_terms = {normalise(a) for a in gold.aspects or ()}
        partner = term_partners(predicted_terms, gold_terms, _share_word)
        statistics.ate = partner_counts(partner, predicted_terms, gold_terms)
        # By length (words of the gold term): a matched predicted term counts in its gold
        # partner's length, an unmatched one in its own.
        for term in gold_terms:
            _add(groups, "ate_gold", "length", term_length(term))
        for term in predicted_terms:
            matched = partner.get(term)
            length = term_length(matched[1] if matched else term)
            _add(groups, "ate_predicted", "length", length)
            if matched:
                _add(groups, "ate_" + matched[0], "length", length)
        if prediction.polarities is not None:
            predicted_pairs = {(normalise(a), p) for a, p in zip(prediction.aspects, prediction.polarities)}
            gold_pairs = {(normalise(a), p) for a, p in zip(gold.aspects or (), gold.polarities or ())}
            partner = term_partners(predicted_pairs, gold_pairs, _share_word)
            statistics.absa = partner_counts(partner, predicted_pairs, gold_pairs)
            # By polarity: a match joins two pairs of the same polarity.
            for pair in gold_pairs:
                _add(groups, "absa_gold", "polarity", POLARITY_NAMES[pair[1]])
            for pair in predicted_pairs:
                _add(groups, "absa_predicted", "polarity", POLARITY_NAMES[pair[1]])
                if pair in partner:
                    _add(groups, "absa_" + partner[pair][0], "polarity", POLARITY_NAMES[pair[1]])
    if prediction.score is not None:
        statistics.squared_error = (prediction.score - gold.score) ** 2  # type: ignore[operator]
        gold_group = str(rounded_score(gold.score))  # type: ignore[arg-type]
        _add(groups, "sa_rounded:%d" % rounded_score(prediction.score), "gold", gold_group)
        _add(groups, "squared_error", "gold", gold_group, statistics.squared_error)
        _add(groups, "reviews", "gold", gold_group)
    return statistics


def _add(groups: Dict[str, float], column: str, dimension: str, group: str, value: float = 1) -> None:
    name = group_column(column, dimension, group)
    groups[name] = groups.get(name, 0) + value


def group_column(column: str, dimension: str, group: str) -> str:
    """The name of ``column`` restricted to one group: ``absa_exact|polarity:positive``."""
    return "%s|%s:%s" % (column, dimension, group)


def term_length(term: str) -> str:
    """The length group of a (normalised) term: its words, 3 and more together."""
    words_in_term = len(term.split())
    return str(words_in_term) if words_in_term < 3 else "3+"


def rounded_score(score: float) -> int:
    """A review score rounded half up, into 1-5 (the SA confusion's columns and rows)."""
    return max(1, min(5, int(math.floor(score + 0.5))))


def term_partners(predicted: Set[Hashable], gold: Set[Hashable], compatible) -> Dict[Hashable, Tuple[str, Hashable]]:
    """Each matched predicted term -> ("exact" or "partial", its gold partner): exact matches first,
    then a maximum one-to-one partial matching of the rest (what ``term_counts`` counts)."""
    exact = predicted & gold
    partners: Dict[Hashable, Tuple[str, Hashable]] = {term: ("exact", term) for term in exact}
    rest_predicted = sorted(predicted - exact, key=repr)
    rest_gold = sorted(gold - exact, key=repr)
    if rest_predicted and rest_gold:
        for j, i in enumerate(matching(rest_gold, rest_predicted, compatible)):
            if i is not None:
                partners[rest_predicted[j]] = ("partial", rest_gold[i])
    return partners


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    gold_problems = Problems(name)
    with reading_reference():
        gold_reviews = list(parse_reviews(gold_path, name, None, gold_problems, True, 1 << 62))
    check_duplicates((r.identifier for r in gold_reviews), gold_problems,
                     lambda i: "line %d" % gold_reviews[i].line)
    gold_problems.raise_as_reference_error()
    gold_by_id = {review.identifier: review for review in gold_reviews}

    # Each submitted review is scored as soon as it is read: what is kept per review is its
    # statistics, never its terms (memory grows with the phase, not with the file).
    problems = Problems(name)
    first_line: Dict[str, int] = {}  # every submitted id -> its line
    statistics_of: Dict[str, Statistics] = {}
    presence = {field_name: FieldPresence() for field_name in ("aspects", "polarities", "score")}
    for prediction in parse_reviews(submission_path, name, options.max_file_bytes, problems, False,
                                    options.max_spans_per_document, record_limit(len(gold_reviews))):
        seen = first_line.setdefault(prediction.identifier, prediction.line)
        if seen != prediction.line:
            problems.add("line %d" % prediction.line, "duplicate id %s (first at line %d); give each id once"
                         % (clip(prediction.identifier), seen))
        for field_name, tracker in presence.items():
            tracker.add(getattr(prediction, field_name) is not None, prediction.line)
        if prediction.score is not None and not 1 <= prediction.score <= 5:
            problems.warn(SCORE_OUTSIDE, "line %d" % prediction.line)
        gold = gold_by_id.get(prediction.identifier)
        if gold is not None and not problems:
            statistics_of[prediction.identifier] = _statistics(prediction, gold)
    problems.raise_if_any()
    check_id_sets([r.identifier for r in gold_reviews], first_line, problems, "review ids",
                  other_phases=other_phase_ids(reference_dir, name))
    has_aspects = presence["aspects"].consistent("aspects", problems)
    has_polarities = presence["polarities"].consistent("polarities", problems)
    has_score = presence["score"].consistent("score", problems)
    if has_polarities and not has_aspects:
        problems.add("", "polarities without aspects; give 'aspects' on every line")
    if not (has_aspects or has_score) and not problems:
        problems.add("", "no line has 'aspects' or 'score'; nothing to score")
    problems.raise_if_any()
    per_review = [(gold.identifier, statistics_of[gold.identifier]) for gold in gold_reviews]

    details: Dict[str, float] = {"reviews": len(gold_reviews)}
    # The headline: the aggregate of the totals of every review's row, summed in review order as
    # ``per_item.column_totals`` sums them for a resample (a loop, not sum(): Python 3.12's sum()
    # of floats is compensated)
    ate, absa = TermCounts(), TermCounts()
    squared_error = 0.0
    for _, statistics in per_review:
        ate.add(statistics.ate)
        absa.add(statistics.absa)
        squared_error += statistics.squared_error
    totals: Dict[str, Any] = {"squared_error": squared_error, "reviews": len(per_review)}
    for task, counts in (("ate", ate), ("absa", absa)):
        totals.update({task + "_" + field: getattr(counts, field) for field in TERM_FIELDS})
    reported = [key for key, entered in (("ate_f1", has_aspects), ("absa_f1", has_polarities),
                                         ("sa_rmse", has_score)) if entered]
    scores = aggregate(ItemStatistics(NAME, [], [], [], (), reported), totals)
    if has_aspects:
        details.update({"ATE exact matches": ate.exact, "ATE partial matches": ate.partial,
                        "ATE predicted terms": ate.predicted, "ATE gold terms": ate.gold})
    if has_polarities:
        details.update({"ABSA exact matches": absa.exact, "ABSA partial matches": absa.partial})
    notes = []
    if not has_polarities and has_aspects:
        notes.append("No polarities were submitted: ABSA is not reported.")
    if not has_score:
        notes.append("No scores were submitted: SA is not reported.")
    if not has_aspects:
        notes.append("No aspects were submitted: ATE and ABSA are not reported.")
    return TrackResult(
        track="absita", title=TITLE, scores=scores, details=details, notes=notes, warnings=problems.warnings,
        statistics=lambda: review_statistics(per_review, tuple(scores)), item_noun="review",
        item_view=_item_view(gold_path, submission_path, name, options, gold_by_id),
    )


# --- the local error analysis (score.py --items only) ---------------------------------------------

ITEM_ERROR = ("unmatched aspect terms (ATE) + unmatched (term, polarity) pairs (ABSA), a partial match "
              "counting half on each side, + |predicted − gold score|")


def item_error(totals: Totals) -> float:
    """The error analysis's error of one review (the totals of its one row)."""
    error = math.sqrt(totals["squared_error"])
    for task in ("ate", "absa"):
        matched = totals[task + "_exact"] + 0.5 * totals[task + "_partial"]
        error += totals[task + "_predicted"] + totals[task + "_gold"] - 2 * matched
    return error


def term_matches(predicted: Sequence[Hashable], gold: Sequence[Hashable], compatible
                 ) -> Tuple[Dict[Hashable, str], Dict[Hashable, str]]:
    """How each distinct predicted and gold term matched, as ``term_counts`` counts them:
    "exact" or "partial" (one-to-one: ``term_partners``); unmatched terms are not keys."""
    partners = term_partners(set(predicted), set(gold), compatible)
    return ({term: kind for term, (kind, _) in partners.items()},
            {partner: kind for kind, partner in partners.values()})


def _item_view(gold_path: str, submission_path: str, name: str, options: Options,
               gold_by_id: Dict[str, Review]) -> Callable[[str], ItemView]:
    """Per review: its text with the gold aspect terms (at their positions) and the predicted ones
    (found in the text) marked exact, partial, missed or false; a table of the terms with their
    polarities; the gold and predicted score. The gold's texts and the submission are read again,
    once, on the first view (scoring keeps neither)."""
    loaded: Dict[str, Any] = {}

    def load() -> Dict[str, Any]:
        if not loaded:
            loaded["gold"] = {value.get(ID_FIELD): value for _, value in iter_ndjson(gold_path, name, None, None)
                              if isinstance(value, dict)}
            loaded["predicted"] = {review.identifier: review for review in parse_reviews(
                submission_path, name, options.max_file_bytes, Problems(name), False,
                options.max_spans_per_document)}
        return loaded

    def view(identifier: str) -> ItemView:
        data = load()
        gold, raw = gold_by_id[identifier], data["gold"].get(identifier, {})
        prediction = data["predicted"][identifier]
        gold_terms = [normalise(term) for term in gold.aspects or ()]
        predicted_terms = [normalise(term) for term in prediction.aspects or ()]
        ate_predicted, ate_gold = term_matches(predicted_terms, gold_terms, _share_word)
        gold_pairs = list(zip(gold_terms, gold.polarities or ()))
        predicted_pairs = list(zip(predicted_terms, prediction.polarities or ()))
        absa_predicted, absa_gold = term_matches(predicted_pairs, gold_pairs, _share_word) \
            if prediction.polarities is not None else ({}, {})
        text = raw.get("sentence") if isinstance(raw.get("sentence"), str) else None
        rows = []
        for side, terms, originals, polarities, ate, absa in (
                ("gold", gold_terms, gold.aspects or [], gold.polarities or [], ate_gold, absa_gold),
                ("predicted", predicted_terms, prediction.aspects or [], prediction.polarities, ate_predicted,
                 absa_predicted)):
            unmatched = "missed" if side == "gold" else "false"
            for k, (term, original) in enumerate(zip(terms, originals)):
                polarity = polarities[k] if polarities is not None else None
                absa_match = "—" if prediction.polarities is None else absa.get((term, polarity)) or unmatched
                rows.append([side, original, POLARITY_NAMES.get(polarity, "—"), ate.get(term) or unmatched,
                             absa_match])
        marked = [("review", _marked_review(text, raw.get("aspects_position"), gold.aspects or [], ate_gold,
                                            prediction.aspects or [], ate_predicted))] if text is not None else []
        score = "%s / %s" % (_number(gold.score), "—" if prediction.score is None else _number(prediction.score))
        return ItemView(text, [], [], marked=marked, facts=[("score (gold / predicted)", score)],
                        table=(["side", "term", "polarity", "ATE match", "ABSA match"], rows))
    return view


def _number(value: Optional[float]) -> str:
    return "—" if value is None else ("%.4f" % value).rstrip("0").rstrip(".")


KIND_OF_MATCH = {"exact": "b", "partial": "h", "missed": "g", "false": "p"}


def _marked_review(text: str, positions: Any, gold_aspects: Sequence[str], gold_matches: Dict[Hashable, str],
                   predicted_aspects: Sequence[str], predicted_matches: Dict[Hashable, str]
                   ) -> List[Tuple[str, str, str]]:
    """The review as pieces: each character of a gold term (at its ``aspects_position``, or its
    first occurrence) marked by how the term matched, and of a predicted term (its first
    occurrence, case ignored) where no gold term is."""
    marks: List[Optional[Tuple[str, str]]] = [None] * len(text)
    lowered = text.lower()

    def place(start: int, end: int, kind: str, title: str, over: bool) -> None:
        for k in range(max(0, start), min(end, len(text))):
            if marks[k] is None or over:
                marks[k] = (kind, title) if marks[k] is None else (marks[k][0], marks[k][1] + "; " + title)

    for k, term in enumerate(gold_aspects):
        match = gold_matches.get(normalise(term)) or "missed"
        span = positions[k] if isinstance(positions, list) and k < len(positions) else None
        if not (isinstance(span, list) and len(span) == 2 and all(type(v) is int for v in span)):
            found = lowered.find(term.lower())
            span = [found, found + len(term)] if found >= 0 else None
        if span is not None:
            place(span[0], span[1], KIND_OF_MATCH[match], "gold: %s (%s)" % (term, match), False)
    for term in predicted_aspects:
        match = predicted_matches.get(normalise(term)) or "false"
        found = lowered.find(term.lower())
        if found >= 0:
            place(found, found + len(term), KIND_OF_MATCH[match], "predicted: %s (%s)" % (term, match), True)
    pieces: List[Tuple[str, str, str]] = []
    for k, character in enumerate(text):
        kind, title = marks[k] or ("", "")
        if pieces and pieces[-1][0] == kind and pieces[-1][2] == title:
            pieces[-1] = (kind, pieces[-1][1] + character, title)
        else:
            pieces.append((kind, character, title))
    return pieces


# --- per-item statistics: what the organisers' confidence intervals and significance stand on -----

TERM_FIELDS = ("exact", "partial", "predicted", "gold")
COLUMNS = (["ate_" + f for f in TERM_FIELDS] + ["absa_" + f for f in TERM_FIELDS]
           + ["squared_error", "reviews"])
POLARITY_NAMES = {(1, 0): "positive", (0, 1): "negative", (0, 0): "neutral", (1, 1): "mixed"}
SCORES = ("1", "2", "3", "4", "5")
# The detailed results' tables by group (phase setting "full"): (title, dimension, its groups,
# (label, column) counts shown, the keys of ``aggregate`` over each group's totals, a note). Each
# group's statistics are columns ``<column>|<dimension>:<group>`` beside the item's totals.
GROUP_TABLES = (
    ("ABSA per polarity", "polarity", ("positive", "negative", "neutral", "mixed"),
     (("gold pairs", "absa_gold"), ("predicted pairs", "absa_predicted"), ("exact", "absa_exact"),
      ("partial", "absa_partial")), ("absa_precision", "absa_recall", "absa_f1"),
     "(term, polarity) pairs of each polarity; a match, exact or partial, joins two pairs of the same polarity."),
    ("ATE by aspect length", "length", ("1", "2", "3+"),
     (("gold terms", "ate_gold"), ("predicted terms", "ate_predicted"), ("exact", "ate_exact"),
      ("partial", "ate_partial")), ("ate_precision", "ate_recall", "ate_f1"),
     "Words of the gold term; a matched predicted term counts in its gold partner's length, an unmatched one "
     "in its own."),
    ("SA: gold score against the rounded predicted score", "gold", SCORES,
     tuple(("predicted %s" % s, "sa_rounded:%s" % s) for s in SCORES) + (("reviews", "reviews"),), ("sa_rmse",),
     "Rows: the gold review score; columns: the predicted score rounded half up into 1-5 (reviews counted); "
     "sa_rmse of the reviews of each gold score."),
)
GROUP_COLUMNS = [group_column(column, dimension, group)
                 for _, dimension, groups, counts, _, _ in GROUP_TABLES for group in groups
                 for column in dict.fromkeys([column for _, column in counts]
                                             + (["squared_error"] if dimension == "gold" else []))]


def review_statistics(per_review: Sequence[Tuple[str, Statistics]], keys: Sequence[str]) -> ItemStatistics:
    """Per review (gold order): ATE and ABSA matching counts, the squared score error and 1; then
    the same by group (``GROUP_TABLES``: ATE by term length, ABSA by polarity, SA by gold score)."""
    position = {name: len(COLUMNS) + k for k, name in enumerate(GROUP_COLUMNS)}
    zeros = [0.0 if name.startswith("squared_error") else 0 for name in GROUP_COLUMNS]
    rows = []
    for _, s in per_review:
        row = [s.ate.exact, s.ate.partial, s.ate.predicted, s.ate.gold, s.absa.exact, s.absa.partial,
               s.absa.predicted, s.absa.gold, s.squared_error, 1] + zeros  # (TERM_FIELDS' order)
        for name, value in s.groups.items():  # a review's few nonzero group statistics
            row[position[name]] = value
        rows.append(tuple(row))
    return ItemStatistics(NAME, [identifier for identifier, _ in per_review], list(COLUMNS) + GROUP_COLUMNS, rows,
                          (), tuple(keys))


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, Any]:
    """The scores of the subtasks the submission entered (``statistics.keys``): ATE and ABSA
    P, R, F1 (``precision_recall_f1``'s steps on the pooled counts) and SA's RMSE."""
    scores = {}
    for task in ("ate", "absa"):
        if task + "_f1" in statistics.keys:
            matched = totals[task + "_exact"] + 0.5 * totals[task + "_partial"]
            precision = ops.divide(matched, totals[task + "_predicted"], 0.0)
            recall = ops.divide(matched, totals[task + "_gold"], 0.0)
            scores.update({task + "_f1": ops.divide(2 * precision * recall, precision + recall, 0.0),
                           task + "_precision": precision, task + "_recall": recall})
    if "sa_rmse" in statistics.keys:
        scores["sa_rmse"] = ops.sqrt(ops.divide(totals["squared_error"], totals["reviews"], 0.0))
    return scores


# --- the public side (bundle build, starting kit): the inputs without the answers ---------------

def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    from ..machinery.public_input import read_ndjson, write_ndjson
    gold = os.path.join(gold_dir, filename)
    if not os.path.isfile(gold):
        return []
    write_ndjson(os.path.join(public_dir, filename),
                 [{ID_FIELD: record[ID_FIELD], "sentence": record.get("sentence", "")} for record in read_ndjson(gold)])
    return [filename]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    from ..machinery.public_input import read_ndjson
    path = os.path.join(public_dir, filename)
    return [record[ID_FIELD] for record in read_ndjson(path)] if os.path.isfile(path) else None


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    """Every review with no aspects, no polarities and the score 3."""
    from ..machinery.public_input import read_ndjson, write_ndjson
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    write_ndjson(os.path.join(gold_dir, filename),
                 [{ID_FIELD: record[ID_FIELD], "aspects": [], "polarities": [], "score": 3} for record in read_ndjson(path)])
    return [filename]


# Frequent aspect terms of the ATE_ABSITA training data (lower-cased), most frequent first.
FREQUENT_ASPECTS = ("prezzo", "qualità", "batteria", "spedizione", "prodotto", "qualità prezzo",
                    "schermo", "design", "suono", "custodia", "materiale", "funzionamento")
MEAN_TRAINING_SCORE = 4.463  # the mean review score of the training set (the organiser's baseline)


def frequent_aspects(reviews: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The baseline: every frequent aspect term found in the review, positive; the mean score."""
    predictions = []
    for review in reviews:
        sentence = review.get("sentence", "").lower()
        aspects = [term for term in FREQUENT_ASPECTS if re.search(r"\b%s\b" % re.escape(term), sentence)]
        predictions.append({ID_FIELD: review[ID_FIELD], "aspects": aspects,
                            "polarities": [[1, 0] for _ in aspects], "score": MEAN_TRAINING_SCORE})
    return predictions


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    from ..machinery.public_input import read_ndjson, write_ndjson
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    write_ndjson(os.path.join(out_dir, filename), frequent_aspects(read_ndjson(path)))
    return [filename]


# --- sample gold and benchmark inputs (tools/make_sample_data.py, benchmarks/run.py) -------------


# (term, comment, polarity) pieces from which sample reviews are assembled.
SAMPLE_PARTS = (
    ("la batteria", "dura tantissimo", [1, 0]), ("la batteria", "si scarica in fretta", [0, 1]),
    ("lo schermo", "\u00e8 luminoso e nitido", [1, 0]), ("lo schermo", "si graffia facilmente", [0, 1]),
    ("la spedizione", "\u00e8 stata velocissima", [1, 0]), ("la spedizione", "\u00e8 arrivata in ritardo", [0, 1]),
    ("il prezzo", "\u00e8 onesto", [1, 0]), ("il prezzo", "\u00e8 un po' alto", [0, 1]),
    ("la qualit\u00e0 costruttiva", "\u00e8 discreta", [0, 0]),
    ("il manuale di istruzioni", "\u00e8 chiaro ma corto", [1, 1]),
    ("il caricabatterie", "funziona bene", [1, 0]), ("la custodia", "\u00e8 fragile", [0, 1]),
    ("mantenere la temperatura", "riesce per ore", [1, 0]), ("il suono", "\u00e8 potente", [1, 0]),
)
SAMPLE_FILLERS = ("Prodotto arrivato oggi.", "Lo consiglio.", "Nel complesso soddisfatto.", "Non lo ricomprerei.")
SAMPLE_REVIEWS = 40  # per split


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: reviews with one to three aspects, and reviews without."""
    from ..machinery.public_input import write_ndjson
    from ..machinery.sample_text import first_id, sample_rng
    rng = sample_rng(seed, NAME, split)
    base = first_id(split)
    reviews = []
    for n in range(SAMPLE_REVIEWS):
        parts = [] if n % 8 == 5 else rng.sample(SAMPLE_PARTS, rng.randint(1, 3))
        sentence, aspects, positions, polarities = rng.choice(SAMPLE_FILLERS), [], [], []
        seen = set()
        for term, comment, polarity in parts:
            if term in seen:
                continue
            seen.add(term)
            capitalised = term[0].upper() + term[1:]
            sentence += " " + capitalised + " " + comment + "."
            article_end = term.index(" ") + 1 if term.startswith(("la ", "lo ", "il ")) else 0
            aspect = term[article_end:]
            start = sentence.index(capitalised) + article_end
            aspects.append(aspect)
            positions.append([start, start + len(aspect)])
            polarities.append(polarity)
        positive = sum(p[0] for p in polarities) - sum(p[1] for p in polarities)
        score = max(1, min(5, 4 + positive + (1 if n % 3 == 0 else 0) - (2 if not parts and n % 2 else 0)))
        reviews.append({"sentence": sentence, ID_FIELD: "%08x-sample-%04d" % (rng.getrandbits(32), base + n),
                        "score": score, "aspects": aspects, "aspects_position": positions,
                        "polarities": polarities})
    write_ndjson(os.path.join(folder, FILE_NAME), reviews)
    return [FILE_NAME]


BENCHMARK = {}


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold in ``ref/`` and a submission in ``res/``; ×1 = the ATE_ABSITA dev set: 109 reviews,
    ~2.2 aspects each."""
    import json
    aspects = ["batteria", "prezzo", "qualità", "spedizione", "schermo", "suono", "durata della batteria",
               "rapporto qualità prezzo", "custodia", "materiale", "design", "peso", "manuale"]
    polarities = [[1, 0], [1, 0], [1, 0], [0, 1], [0, 0], [1, 1]]
    gold, predicted = [], []
    for i in range(109 * scale):
        terms = rng.sample(aspects, rng.choice([0, 1, 2, 2, 3, 4]))
        pols = [rng.choice(polarities) for _ in terms]
        gold.append({ID_FIELD: "r%06d" % i, "sentence": "…", "aspects": terms, "polarities": pols,
                     "score": rng.choice([1, 3, 4, 5, 5, 5])})
        guess = [t.split()[-1] if rng.random() < 0.2 else t for t in terms if rng.random() < 0.8]
        predicted.append({ID_FIELD: "r%06d" % i, "aspects": guess,
                          "polarities": [rng.choice(polarities) for _ in guess], "score": rng.uniform(1, 5)})
    for side, rows in (("ref", gold), ("res", predicted)):
        with open(os.path.join(input_dir, side, FILE_NAME), "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
