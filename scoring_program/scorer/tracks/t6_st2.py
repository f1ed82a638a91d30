"""Track ``t6_st2``: SemEval-2021 Task 6 subtask 2, technique + character span in meme text.

Partial-overlap precision/recall/F1 summed over all (prediction, gold) pairs of one technique in
one meme, exactly as the official ``task-2-semeval21_scorer.py``. Metric card: ``t6_st2.md``.
"""

from __future__ import annotations

import json
import math

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..machinery.public_input import MemeList
from ..readers.options import Options, other_phase_ids
from ..readers.problems import Problems, describe, reading_reference
from ..readers.records import record_where
from ..readers.records import check_duplicates, check_id_sets, json_records, label_problem, record_limit, string_id
from ..machinery import span_metric
from ..readers.result import ItemView, TrackResult
from ..machinery.item_digests import span_digests
from ..machinery.span_metric import SpanStatistics, span_track_result
from ..machinery.span_problems import offset_problem, overlap_problem, predictions_under_policy, warn_if_past_the_text
from ..machinery.spans import Span
from ..machinery.techniques import SEMEVAL2021_T6_ST1_ST2

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

NAME = "t6_st2"
FILE_NAME = "semeval2021_t6_st2.json"
TITLE = "SemEval-2021 Task 6, subtask 2: techniques and their spans in meme text"
GOLD_NAMES = (FILE_NAME,)
KEYS = span_metric.span_keys(NAME)  # ("t6_st2_f1", "t6_st2_precision", "t6_st2_recall")
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = ((NAME, "t6_st2_f1"),)
POOLED_KEYS = KEYS
TECHNIQUES = SEMEVAL2021_T6_ST1_ST2
RELEASED_GOLD = {"train": "training_set_task2.txt", "dev": "dev_set_task2.txt", "test": "test_set_task2.txt"}
SETTINGS = ("overlapping_predictions", "per_technique_recall")

Memes = Dict[str, Dict[str, List[Span]]]  # meme id -> technique -> spans


def read_memes(path: str, name: str, max_bytes: int, problems: Problems,
               text_lengths: Optional[Dict[str, int]], max_spans: int, max_records: Optional[int] = None
               ) -> Tuple[List[str], Memes, Dict[str, int], List[str]]:
    """(ids in file order, spans per meme and technique, text length per meme of the gold, ids of
    the memes with two spans or more of one technique: the only ones the overlap policy can change).

    With ``text_lengths`` None the file is gold: ``text`` is required and bounds the offsets.
    Otherwise a span past the gold text of its meme is scored as given, with a counted warning;
    reading stops past ``max_records`` records (None: no bound).
    """
    is_gold = text_lengths is None
    records = json_records(path, name, None if is_gold else max_bytes, problems, max_records, "memes")
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
            technique, span = _read_span(label, known, problems, (index, record, number), is_gold)
            if span is None:
                continue
            if length is not None and span[1] > length:  # (rare: the place is named only here)
                where = "%s, label %d" % (record_where(index, record), number)
                if is_gold:
                    problems.add(where, offset_problem(span[0], span[1], length))
                    continue
                warn_if_past_the_text(span[0], span[1], length, "meme", problems, where)
            group = spans.get(technique)
            if group is None:
                spans[technique] = [span]
            else:
                group.append(span)
                if len(group) == 2 and identifier is not None:
                    several.append(identifier)
        if identifier is not None:
            order.append(identifier)
            indices.append(index)
            memes[identifier] = spans
            if is_gold and length is not None:
                lengths[identifier] = length
    # The official scorer keeps the last copy of a repeated id (gold: an organiser's error).
    check_duplicates(order, problems, lambda i: "record %d" % (indices[i] + 1), last_wins=not is_gold)
    return order, memes, lengths, several


# Offsets the official scorer reads with int(): a string or a fractional number is scored as
# int() reads it ("5" -> 5, 7.9 -> 7), with this warning.
READ_WITH_INT = ('%d offset is not a JSON integer; read with int() as the official scorer does '
                 '("5" -> 5, 7.9 -> 7)',
                 '%d offsets are not JSON integers; read with int() as the official scorer does '
                 '("5" -> 5, 7.9 -> 7)')


def _read_span(label: Any, known: frozenset, problems: Problems, place: Tuple[int, Any, int], is_gold: bool
               ) -> Tuple[Any, Optional[Span]]:
    """(technique, span) of one label, or a problem and (None, None).

    Parameters
    ----------
    label : object
        The label as parsed: ``{"technique", "start", "end"}``.
    known : frozenset of str
        The techniques.
    problems : Problems
        Where a problem or warning goes.
    place : (record index, record, label number)
        Where the label is, named only in a problem line.
    is_gold : bool
        Gold offsets must be integers; submitted ones go through int() as in the official scorer.

    Returns
    -------
    (str, (int, int)) or (None, None)
    """
    index, record, number = place
    where = "%s, label %d" % (record_where(index, record), number)
    if not isinstance(label, dict):
        problems.add(where, "expected an object {\"technique\", \"start\", \"end\"}")
        return None, None
    missing = [field for field in ("technique", "start", "end") if field not in label]
    if missing:
        problems.add(where, "missing field %s" % ", ".join(repr(field) for field in missing))
        return None, None
    technique = label["technique"]
    if not isinstance(technique, str) or technique not in known:
        problems.add(where, label_problem(technique, TECHNIQUES))
        return None, None
    start, end = label["start"], label["end"]
    if not is_gold:
        start, end = _official_int(start), _official_int(end)
        if start is not None and end is not None:
            for given in (label["start"], label["end"]):
                if type(given) is not int:
                    problems.warn(READ_WITH_INT, where)
    problem = offset_problem(start, end)
    if problem:
        if start is None or end is None:
            problem = "start and end must be integer character offsets (found %s, %s)" \
                      % (describe(label["start"]), describe(label["end"]))
        problems.add(where, problem)
        return None, None
    return technique, (start, end)


def _official_int(value: Any) -> Optional[int]:
    """``int(value)`` as the official scorer applies it to an offset, or None where it fails
    (booleans are not offsets; a number text is at most 32 characters long)."""
    if type(value) is int:
        return value
    if type(value) is float:
        return int(value) if math.isfinite(value) else None
    if type(value) is str and len(value) <= 32:
        try:
            return int(value)
        except ValueError:
            return None
    return None


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    gold_problems = Problems(name)
    with reading_reference():
        gold_order, gold, lengths, _ = read_memes(gold_path, name, 1 << 62, gold_problems, None, 1 << 62)
    gold_problems.raise_as_reference_error()

    problems = Problems(name)
    order, predicted, _, several = read_memes(submission_path, name, options.max_file_bytes, problems,
                                              lengths, options.max_spans_per_document, record_limit(len(lengths)))
    check_id_sets(gold_order, order, problems, "meme ids", other_phases=other_phase_ids(reference_dir, name))
    for meme in dict.fromkeys(several):  # (a meme where one span per technique is left as it is)
        predicted[meme], overlaps = predictions_under_policy(predicted[meme], options.overlapping_predictions)
        for overlap in overlaps:
            problems.add("meme %r" % meme, overlap_problem(overlap))
    problems.raise_if_any()
    statistics = SpanStatistics(TECHNIQUES, confusions=options.detailed_results == "full")
    for meme in gold_order:
        statistics.add_document(meme, gold[meme], predicted.get(meme, {}))
    result = span_track_result(NAME, TITLE, statistics, TECHNIQUES,
                               options.per_technique_recall == "official", "meme")
    result.warnings.extend(problems.warnings)
    result.item_view = _item_view(gold_path, gold, predicted)
    return result


def in_memory_scores(gold_path: str, submission_path: str, name: str) -> Dict[str, float]:
    """The card's in-memory entry point, ``span_metric.span_scores(gold, predicted, merge_gold=False)``,
    on the memes of the files as ``read_memes`` reads them."""
    problems = Problems(name)
    _, gold, lengths, _ = read_memes(gold_path, name, 1 << 62, problems, None, 1 << 62)
    _, predicted, _, _ = read_memes(submission_path, name, 1 << 62, problems, lengths, 1 << 62,
                                    record_limit(len(lengths)))
    if problems:
        raise ValueError("; ".join(problems.lines))
    scores = span_metric.span_scores({meme: _flat(spans) for meme, spans in gold.items()},
                                     {meme: _flat(spans) for meme, spans in predicted.items()},
                                     Options().overlapping_predictions, merge_gold=False)
    return dict(zip(KEYS, (scores["f1"], scores["precision"], scores["recall"])))


def prediction_digests(submission_path: str, name: str, options: Options) -> Dict[str, bytes]:
    """Each meme's spans as scored (after the overlap policy), sorted (``item_digests.span_digests``)."""
    problems = Problems(name)
    order, predicted, _, _ = read_memes(submission_path, name, options.max_file_bytes, problems, {},
                                        options.max_spans_per_document)
    problems.raise_if_any()
    policy = options.overlapping_predictions
    return span_digests((meme, predictions_under_policy(predicted[meme], policy)[0]) for meme in dict.fromkeys(order))


def _item_view(gold_path: str, gold: Memes, predicted: Memes) -> Callable[[str], ItemView]:
    """Local error analysis only: a meme's text (the gold file is read again, once) and spans."""
    texts: Dict[str, str] = {}

    def view(meme: str) -> ItemView:
        if not texts:
            with open(gold_path, encoding="utf-8") as handle:
                texts.update((record.get("id"), record.get("text")) for record in json.load(handle)
                             if isinstance(record, dict))
        return ItemView(texts.get(meme), _flat(gold.get(meme, {})), _flat(predicted.get(meme, {})))
    return view


def _flat(spans: Dict[str, List[Span]]) -> List[Tuple[str, int, int]]:
    return [(technique, start, end) for technique, group in spans.items() for start, end in group]


# The scores from the totals of the per-item statistics (a row per meme: the four sums of each
# technique; ``span_metric``).
aggregate = span_metric.aggregate


# --- the public side (bundle build, starting kit): the inputs without the answers ---------------

_PUBLIC_SIDE = MemeList(("id", "text"))  # the text: offsets point into it
write_public_input = _PUBLIC_SIDE.write_public_input
public_ids = _PUBLIC_SIDE.public_ids
write_stand_in_gold = _PUBLIC_SIDE.write_stand_in_gold


def random_spans(records: Sequence[Dict[str, Any]], techniques: Sequence[str],
                 seed: int = 42, as_published: bool = True) -> List[Dict[str, Any]]:
    """SemEval-2021 T6 ST2 random baseline: walk through the text with random jumps and random
    span lengths, each span with a random technique.

    As published (``as_published``), the script keeps a span only when it is the first of its
    meme or when it overlaps an earlier span of the same technique (its comment says the
    opposite); that reproduces the published 0.00699 on dev, but such overlaps are refused by the
    default settings of this competition. With ``as_published=False`` the keep rule is the one the
    comment intended (no overlap with an earlier span of the same technique): a valid submission.
    """
    import random
    rng = random.Random(seed)
    predictions = []
    for record in records:
        length = len(record["text"])
        start = end = 0
        kept: List[tuple] = []
        while end < length:
            if end > 0:
                technique = techniques[rng.randint(0, len(techniques) - 1)]
                overlaps_same = any(name == technique and min(end, e) > max(start, s)
                                    for name, s, e in kept)
                keep = (not kept or overlaps_same) if as_published else not overlaps_same
                if keep:
                    kept.append((technique, start, end))
            start += rng.randint(0, max(1, length - start))
            end = min(start + rng.randint(1, length - start + 1), length)
        predictions.append({"id": record["id"],
                            "labels": [{"technique": t, "start": s, "end": e} for t, s, e in kept]})
    return predictions


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """The task's random baseline with the keep rule its comment intended (a valid submission)."""
    import os
    from ..machinery.public_input import read_json, write_text
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    predictions = random_spans(read_json(path), TECHNIQUES, seed, as_published=False)
    write_text(os.path.join(out_dir, filename), json.dumps(predictions, indent=1) + "\n")
    return [filename]


# --- sample gold and benchmark inputs (tools/make_sample_data.py, benchmarks/run.py) -------------


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: the memes the three subtasks share, with their technique spans."""
    from ..machinery.sample_text import write_sample_memes
    return write_sample_memes(folder, FILE_NAME, split, seed,
                              lambda meme: {"id": meme.id, "text": meme.text, "labels": meme.spans})


BENCHMARK = {"oracle": "spans"}


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold in ``ref/`` and a submission in ``res/`` at ``scale`` × the test set (200 memes)."""
    from ..machinery.sample_text import write_benchmark_memes
    write_benchmark_memes(input_dir, FILE_NAME, scale, rng, TECHNIQUES, spans=True)
