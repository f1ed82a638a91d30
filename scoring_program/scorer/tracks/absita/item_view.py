"""absita's local error analysis (``score.py --items`` only): a review's text with the gold and
predicted aspect terms marked by how they matched, a table of the terms and the two scores."""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple

from ...readers.options import Options
from ...readers.problems import Problems
from ...readers.ndjson import iter_ndjson
from ...readers.result import ItemView
from .reviews import ID_FIELD, Review, parse_reviews
from .statistics import POLARITY_NAMES
from .terms import normalise, term_matches


def item_view(gold_path: str, submission_path: str, name: str, options: Options,
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
        ate_predicted, ate_gold = term_matches(predicted_terms, gold_terms)
        gold_pairs = list(zip(gold_terms, gold.polarities or ()))
        predicted_pairs = list(zip(predicted_terms, prediction.polarities or ()))
        absa_predicted, absa_gold = term_matches(predicted_pairs, gold_pairs) \
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

