"""Track ``t6_st2``: SemEval-2021 Task 6 subtask 2, technique + character span in meme text.

Partial-overlap precision/recall/F1 summed over all (prediction, gold) pairs of one technique in
one meme, exactly as the official ``task-2-semeval21_scorer.py``. Metric card: ``t6_st2.md``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..options import Options
from ..problems import Problems, reading_reference
from ..readers import record_where
from ..records import check_duplicates, check_id_sets, json_records, label_problem, record_limit, string_id
from ..result import TrackResult
from ..span_metric import (SpanStatistics, offset_problem, overlap_problem, predictions_under_policy,
                           span_track_result)
from ..spans import Span
from ..techniques import SEMEVAL2021_T6_ST1_ST2

TITLE = "SemEval-2021 Task 6, subtask 2: techniques and their spans in meme text"
TECHNIQUES = SEMEVAL2021_T6_ST1_ST2

Memes = Dict[str, Dict[str, List[Span]]]  # meme id -> technique -> spans


def read_memes(path: str, name: str, max_bytes: int, problems: Problems,
               text_lengths: Optional[Dict[str, int]], max_spans: int
               ) -> Tuple[List[str], Memes, Dict[str, int], List[str]]:
    """(ids in file order, spans per meme and technique, text length per meme of the gold, ids of
    the memes with two spans or more of one technique: the only ones the overlap policy can change).

    With ``text_lengths`` None the file is gold: ``text`` is required and bounds the offsets.
    Otherwise the offsets are checked against the gold text of the same meme.
    """
    is_gold = text_lengths is None
    records = json_records(path, name, None if is_gold else max_bytes, problems,
                           None if is_gold else record_limit(len(text_lengths or ())), "memes")
    known = frozenset(TECHNIQUES)
    order: List[str] = []
    memes: Memes = {}
    lengths: Dict[str, int] = {}
    indices: List[int] = []  # each kept record's place in the file, for duplicate messages
    several: List[str] = []
    for index, record in records:
        identifier = record.get("id")
        if type(identifier) is not str or not identifier:
            identifier = string_id(record, index, problems)
        length: Optional[int] = None
        if is_gold:
            text = record.get("text")
            if not isinstance(text, str):
                problems.add(record_where(index, record), "field 'text' must be a string")
            else:
                length = len(text)
        elif identifier is not None and text_lengths is not None:
            length = text_lengths.get(identifier)
        labels = record.get("labels")
        if not isinstance(labels, list):
            problems.add(record_where(index, record),
                         "missing field 'labels' (a list of {\"technique\", \"start\", \"end\"}; [] for none)"
                         if "labels" not in record else
                         "field 'labels' must be a list of {\"technique\", \"start\", \"end\"}")
            continue
        if len(labels) > max_spans:
            problems.add(record_where(index, record),
                         "%d spans; at most %d per meme are accepted" % (len(labels), max_spans))
            continue
        spans: Dict[str, List[Span]] = {}
        for number, label in enumerate(labels, start=1):
            if type(label) is dict:  # the fast path: a well-formed span
                technique, start, end = label.get("technique"), label.get("start"), label.get("end")
                if (type(technique) is str and technique in known and type(start) is int and type(end) is int
                        and 0 <= start < end and (length is None or end <= length)):
                    group = spans.get(technique)
                    if group is None:
                        spans[technique] = [(start, end)]
                    else:
                        group.append((start, end))
                        if len(group) == 2 and identifier is not None:
                            several.append(identifier)
                    continue
            problems.add("%s, label %d" % (record_where(index, record), number), _span_problem(label, known, length))
        if identifier is not None:
            order.append(identifier)
            indices.append(index)
            memes[identifier] = spans
            if is_gold and length is not None:
                lengths[identifier] = length
    check_duplicates(order, problems, lambda i: "record %d" % (indices[i] + 1))
    return order, memes, lengths, several


def _span_problem(label: Any, known: frozenset, text_length: Optional[int]) -> str:
    if not isinstance(label, dict):
        return "expected an object {\"technique\", \"start\", \"end\"}"
    missing = [field for field in ("technique", "start", "end") if field not in label]
    if missing:
        return "missing field %s" % ", ".join(repr(field) for field in missing)
    if not isinstance(label["technique"], str) or label["technique"] not in known:
        return label_problem(label["technique"], TECHNIQUES)
    return offset_problem(label["start"], label["end"], text_length)


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    gold_problems = Problems(name)
    with reading_reference():
        gold_order, gold, lengths, _ = read_memes(gold_path, name, 1 << 62, gold_problems, None, 1 << 62)
    gold_problems.raise_as_reference_error()

    problems = Problems(name)
    order, predicted, _, several = read_memes(submission_path, name, options.max_file_bytes, problems,
                                     lengths, options.max_spans_per_document)
    check_id_sets(gold_order, order, problems, "meme ids")
    for meme in dict.fromkeys(several):  # (a meme where one span per technique is left as it is)
        predicted[meme], overlaps = predictions_under_policy(predicted[meme], options.overlapping_predictions)
        for overlap in overlaps:
            problems.add("meme %r" % meme, overlap_problem(overlap))
    problems.raise_if_any()
    statistics = SpanStatistics(TECHNIQUES)
    for meme in gold_order:
        statistics.add_document(meme, gold[meme], predicted.get(meme, {}))
    return span_track_result("t6_st2", TITLE, "t6_st2", statistics, TECHNIQUES,
                             options.per_technique_recall == "official", "meme")
