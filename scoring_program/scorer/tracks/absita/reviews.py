"""absita's JSON Lines files read as reviews: each line one review, its id, aspect terms, their
polarities and its score, checked field by field (a problem names the line and the field); and
each review's canonical prediction (the contract's ``prediction_digests``)."""

from __future__ import annotations

import math
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ...machinery.item_digests import digest
from ...readers.options import Options
from ...readers.problems import Problems, clip, describe
from ...readers.ndjson import iter_ndjson
from ...readers.text_lines import MAX_LINE_BYTES
from .terms import normalise

ID_FIELD = "id_sentence"

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


def prediction_digests(path: str, name: str, options: Options) -> Dict[str, bytes]:
    """The contract's ``prediction_digests``: each review's terms as scored (normalised, a set),
    its (term, polarity) pairs (a set) and its score, each None where the line does not give it."""
    problems = Problems(name)
    found: Dict[str, bytes] = {}
    for review in parse_reviews(path, name, options.max_file_bytes, problems, False, options.max_spans_per_document):
        terms = pairs = None
        if review.aspects is not None:
            terms = tuple(sorted({normalise(aspect) for aspect in review.aspects}))
            if review.polarities is not None:
                pairs = tuple(sorted({(normalise(a), p) for a, p in zip(review.aspects, review.polarities)}))
        found[review.identifier] = digest((terms, pairs, review.score))
    problems.raise_if_any()
    return found


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

