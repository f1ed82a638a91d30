"""SemEval-2021 Task 6 multilabel files (ST1 and ST3): reading, scoring, per-item statistics,
baselines, and the declarations the two track modules share (``meme_track_declarations``).

Both subtasks share the format (a JSON list of ``{"id", "labels", ...}``) and the metric
(micro/macro-F1 with ``zero_division=1`` over the subtask's class list); only the list differs.
The headline scores are ``multilabel.aggregate`` of the per-class totals; ``meme_statistics``
gives the per-meme rows (the result's ``statistics``) the same aggregate resamples.
"""

from __future__ import annotations

import json
import os
from operator import itemgetter
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .item_digests import digest
from .multilabel import (aggregate, class_columns, class_rows, class_totals, count_classes, micro_precision_recall,
                         multilabel_keys)
from ..readers.options import Options, other_phase_ids
from .per_item import ItemStatistics
from .public_input import MemeList, read_json, write_json
from ..readers.problems import Problems, reading_reference
from ..readers.records import record_where
from ..readers.records import check_duplicates, check_id_sets, json_records, label_problem, record_limit, string_id
from ..readers.result import ItemView, TrackResult

# (id, set of labels, the labels as listed in the file) per record, in file order
LabelSets = List[Tuple[str, FrozenSet[str], Sequence[str]]]


def read_label_file(path: str, name: str, classes: Sequence[str], max_bytes: Optional[int],
                    problems: Problems, max_records: Optional[int] = None,
                    last_wins: bool = False) -> LabelSets:
    """(id, set of labels, labels as listed) per record; every problem goes to ``problems``.

    One validator, record by record. Labels are kept as listed (as the class list's own strings
    when a record repeats them): memory grows with the records kept (at most ``max_records``), not
    with the text of the file. ``last_wins`` (submissions): a repeated id is
    a counted warning, not a problem, and the caller keeps its last copy, as the official
    scorer's dict does.
    """
    canonical = {label: label for label in classes}
    known = frozenset(classes)
    records: LabelSets = []
    indices: List[int] = []  # each kept record's place in the file, for duplicate messages
    for index, record in json_records(path, name, max_bytes, problems, max_records, "memes"):
        identifier = record.get("id")
        if type(identifier) is not str or not identifier:
            identifier = string_id(record, index, problems)
        labels = record.get("labels")
        try:
            valid = type(labels) is list and known.issuperset(labels)
        except TypeError:  # an unhashable label (a list or an object)
            valid = False
        if not valid:
            labels = _checked_labels(record, index, classes, known, problems)
            if labels is None:
                continue
        if identifier is not None:  # kept (with its valid labels) so that id checks still run
            listed = tuple(map(canonical.__getitem__, labels)) if len(labels) > len(known) else labels
            records.append((identifier, frozenset(listed), listed))
            indices.append(index)
    check_duplicates((record[0] for record in records), problems,
                     lambda i: "record %d" % (indices[i] + 1), last_wins)
    return records


def _checked_labels(record, index, classes, known, problems) -> Optional[List[str]]:
    """The valid labels of a record whose labels have a problem (each one reported)."""
    where = record_where(index, record)
    if "labels" not in record:
        problems.add(where, "missing field 'labels' (use [] for no technique)")
        return None
    labels = record["labels"]
    if not isinstance(labels, list):
        problems.add(where, "field 'labels' must be a list of technique names")
        return None
    bad = [label for label in labels if not isinstance(label, str) or label not in known]
    for label in bad[:3]:
        problems.add(where + ", field 'labels'", label_problem(label, classes))
    return [label for label in labels if isinstance(label, str) and label in known]


def score_multilabel(track: str, title: str, classes: Sequence[str],
                     gold_path: str, submission_path: str, name: str, options: Options,
                     reference_dir: str) -> TrackResult:
    gold_problems = Problems(name)
    with reading_reference():
        gold = read_label_file(gold_path, name, classes, None, gold_problems)
    gold_problems.raise_as_reference_error()

    problems = Problems(name)
    submitted = read_label_file(submission_path, name, classes, options.max_file_bytes, problems,
                                record_limit(len(gold)), last_wins=True)
    texts: Dict[Any, Any] = {}

    def text_of(meme: str) -> Optional[str]:  # local error analysis only: the gold file is read again, once
        if not texts:
            with open(gold_path, encoding="utf-8") as handle:
                texts.update((record.get("id"), record.get("text")) for record in json.load(handle)
                             if isinstance(record, dict))
        text = texts.get(meme)
        return text if isinstance(text, str) else None

    return score_label_sets(track, title, classes, gold, submitted, problems,
                            other_phase_ids(reference_dir, name), text_of)


def score_label_sets(track: str, title: str, classes: Sequence[str], gold: LabelSets, submitted: LabelSets,
                     problems: Problems, other_phases: Optional[Dict[str, FrozenSet[str]]] = None,
                     text_of: Optional[Callable[[str], Optional[str]]] = None, item_noun: str = "meme",
                     ) -> TrackResult:
    """The multilabel result of label sets read from any container (a JSON list, TSV lines, ...):
    micro/macro-F1 with ``zero_division=1`` over ``classes``, keys ``multilabel_keys(track)``.

    Parameters
    ----------
    gold, submitted : list of (id, frozenset of labels, labels as listed)
        The records in file order, as ``read_label_file`` gives them (a repeated submitted id: its
        last copy counts); every label one of ``classes``.
    problems : Problems
        The submission's problems so far; the id checks add theirs, then any problem refuses it.
    other_phases : dict, optional
        ``options.other_phase_ids``: names predictions made for another phase's items.
    text_of : callable, optional
        An item's text for the local error analysis (None: the items are shown without text).
    item_noun : str
        What an item is, in messages and pages ("meme", "paragraph", ...).

    Returns
    -------
    TrackResult
    """
    # Whole-list operations (map, zip) rather than loops: this runs once per submission on every
    # record. A dict keeps the last copy of a repeated id, as the official scorer's does.
    submitted_by_id = dict(zip(map(itemgetter(0), submitted), submitted))
    gold_ids = list(map(itemgetter(0), gold))
    check_id_sets(gold_ids, submitted_by_id, problems, item_noun + " ids", other_phases=other_phases)
    problems.raise_if_any()

    predicted = list(map(submitted_by_id.__getitem__, gold_ids))  # (id, set, listed) in gold order
    gold_sets = list(map(itemgetter(1), gold))
    predicted_sets = list(map(itemgetter(1), predicted))
    # The column totals of every meme's row, summed here in one pass: the headline is their
    # aggregate (as each resample's score), the table and the micro P and R their per-class steps
    totals = class_totals(count_classes(zip(gold_sets, predicted_sets), classes), classes)
    headline = aggregate(ItemStatistics(track, [], [], [], classes), totals)
    micro_precision, micro_recall = micro_precision_recall(totals, classes)

    def item_view(item: str) -> ItemView:
        if not where:
            where.update((identifier, i) for i, identifier in enumerate(gold_ids))
        index = where[item]
        return ItemView(text_of(item) if text_of else None, list(gold[index][2]), list(predicted[index][2]))

    where: Dict[str, int] = {}
    return TrackResult(
        track=track,
        title=title,
        scores=headline,  # <track>_f1_micro, <track>_f1_macro
        details={
            item_noun + "s": len(gold),
            "gold labels": sum(map(len, gold_sets)),
            "predicted labels": sum(map(len, predicted_sets)),
            "micro precision": micro_precision,
            "micro recall": micro_recall,
        },
        table=class_rows(totals, classes),
        table_note="Per class, scikit-learn semantics with zero_division=1: a technique absent from "
                   "gold and predictions scores 1.0 and counts in the macro average.",
        warnings=problems.warnings,
        statistics=lambda: meme_statistics(track, classes, gold_ids, gold_sets, predicted_sets, tuple(headline)),
        item_noun=item_noun,
        item_view=item_view,
    )


def meme_statistics(track: str, classes: Sequence[str], ids: List[str], gold_sets: Sequence[FrozenSet[str]],
                    predicted_sets: Sequence[FrozenSet[str]], keys: Sequence[str]) -> ItemStatistics:
    """Per meme (gold order) and class: true positive, false positive, false negative (0 or 1),
    columns ``multilabel.class_columns`` of the track's classes."""
    classes = list(classes)
    position = {label: i for i, label in enumerate(classes)}
    columns = class_columns(classes)
    rows = []
    for gold_set, predicted_set in zip(gold_sets, predicted_sets):
        row = [0] * len(columns)
        for label in gold_set:
            row[3 * position[label] + (0 if label in predicted_set else 2)] = 1
        for label in predicted_set - gold_set:
            row[3 * position[label] + 1] = 1
        rows.append(tuple(row))
    return ItemStatistics(track, list(ids), columns, rows, classes, tuple(keys))


def label_digests(path: str, name: str, classes: Sequence[str], options: Options) -> Dict[str, bytes]:
    """The contract's ``prediction_digests``: each meme's set of labels, sorted (the last copy of a
    repeated id, as scored)."""
    problems = Problems(name)
    records = read_label_file(path, name, classes, options.max_file_bytes, problems, last_wins=True)
    problems.raise_if_any()
    return {identifier: digest(tuple(sorted(labels))) for identifier, labels, _ in records}


# --- the baselines of ST1 and ST3 (written from the public input) --------------------------------

def random_labels(records: Sequence[Dict[str, Any]], techniques: Sequence[str],
                  seed: int = 42) -> List[Dict[str, Any]]:
    """SemEval-2021 T6 ST1/ST3 random baseline: per meme, while a fair coin says so, add a
    technique drawn uniformly from those not drawn yet for this meme (the same draws from
    ``random.Random(42)`` as the task's baseline scripts, so the published figures come out)."""
    import random
    rng = random.Random(seed)
    predictions = []
    for record in records:
        remaining = list(techniques)
        labels: List[str] = []
        while len(labels) < len(techniques) and rng.random() < 0.5:
            labels.append(remaining.pop(rng.randint(0, len(remaining) - 1)))
        predictions.append({"id": record["id"], "labels": labels})
    return predictions


def majority_labels(records: Sequence[Dict[str, Any]], technique: str) -> List[Dict[str, Any]]:
    """The majority baseline: the most frequent technique of the training gold everywhere."""
    return [{"id": record["id"], "labels": [technique]} for record in records]


def write_multilabel_baseline(public_dir: str, out_dir: str, filename: str, classes: Sequence[str],
                              majority: str, seed: int, variant: str) -> List[str]:
    """``variant`` "random" (the task's) or "majority"; [filename], or [] without public input."""
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    records = read_json(path)
    write_json(os.path.join(out_dir, filename), random_labels(records, classes, seed) if variant == "random"
               else majority_labels(records, majority))
    return [filename]


def in_memory_multilabel_scores(track: str, classes: Sequence[str], gold_path: str, submission_path: str,
                                file_name: str) -> Dict[str, float]:
    """``multilabel.multilabel_scores`` (the cards' in-memory entry point) on the memes of a gold
    and a submitted file, read by ``read_label_file``; the track's keys (``multilabel_keys``).
    Raises ``ValueError`` with the problem lines of a file it cannot read."""
    from .multilabel import multilabel_keys, multilabel_scores

    documents = []
    for path, name in ((gold_path, os.path.basename(gold_path)), (submission_path, file_name)):
        problems = Problems(name)
        records = read_label_file(path, name, classes, None, problems, last_wins=path == submission_path)
        if problems:
            raise ValueError("; ".join(problems.lines))
        documents.append({identifier: list(listed) for identifier, _, listed in records})
    scores = multilabel_scores(documents[0], documents[1], classes)
    micro, macro = multilabel_keys(track)
    return {micro: scores["f1_micro"], macro: scores["f1_macro"]}


# --- the declarations a multilabel meme subtask (ST1, ST3) shares --------------------------------

def meme_track_declarations(name: str, title: str, file_name: str, techniques: Sequence[str], majority: str,
                            public_fields: Sequence[str], sample_record: Callable[[Any], Dict[str, Any]]
                            ) -> Dict[str, Any]:
    """The contract's declarations (``scorer/tracks/contract.py``) of a multilabel meme subtask that
    follow from what its track module writes itself.

    Parameters
    ----------
    name, title, file_name : str
        The track's ``NAME``, ``TITLE`` and ``FILE_NAME``.
    techniques : sequence of str
        Its ``TECHNIQUES``: the class list.
    majority : str
        The technique of the majority baseline (``write_baseline``'s variant "majority").
    public_fields : sequence of str
        The fields of a gold record that its public input keeps (``public_input.MemeList``).
    sample_record : callable
        A sample meme (``sample_text.write_sample_memes``) -> its record in the sample gold.

    Returns
    -------
    dict of declaration name -> value
        ``GOLD_NAMES``, ``KEYS`` (``multilabel.multilabel_keys``), ``LEADERBOARDS`` and
        ``POOLED_KEYS`` (micro-F1), ``score``, ``aggregate``, ``in_memory_scores``,
        ``prediction_digests``, the public side, ``write_baseline``, ``write_sample_gold`` and
        ``write_benchmark_input``.
    """
    keys = multilabel_keys(name)
    public_side = MemeList(tuple(public_fields))

    def score(gold_path: str, submission_path: str, submitted_name: str, options: Options,
              reference_dir: str) -> TrackResult:
        return score_multilabel(name, title, techniques, gold_path, submission_path, submitted_name, options,
                                reference_dir)

    def in_memory_scores(gold_path: str, submission_path: str, submitted_name: str) -> Dict[str, float]:
        """The card's in-memory entry point, ``multilabel.multilabel_scores``, on the files' memes."""
        return in_memory_multilabel_scores(name, techniques, gold_path, submission_path, submitted_name)

    def prediction_digests(submission_path: str, submitted_name: str, options: Options) -> Dict[str, bytes]:
        """Each meme's labels as a sorted set (``label_digests``)."""
        return label_digests(submission_path, submitted_name, techniques, options)

    def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42,
                       variant: str = "random") -> List[str]:
        """The task's random baseline (``variant`` "majority": the majority technique everywhere)."""
        return write_multilabel_baseline(public_dir, out_dir, filename, techniques, majority, seed, variant)

    def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
        """The sample gold of ``split``: the memes the three subtasks share, with this subtask's labels."""
        from .sample_text import write_sample_memes
        return write_sample_memes(folder, file_name, split, seed, sample_record)

    def write_benchmark_input(input_dir: str, scale: int, rng: Any) -> None:
        """Gold in ``ref/`` and a submission in ``res/`` at ``scale`` × the test set (200 memes)."""
        from .sample_text import write_benchmark_memes
        write_benchmark_memes(input_dir, file_name, scale, rng, techniques, spans=False)

    return {"GOLD_NAMES": (file_name,), "KEYS": keys, "LEADERBOARDS": ((name, keys[0]),), "POOLED_KEYS": (keys[0],),
            "score": score, "aggregate": aggregate, "in_memory_scores": in_memory_scores,
            "prediction_digests": prediction_digests,
            "write_public_input": public_side.write_public_input, "public_ids": public_side.public_ids,
            "write_stand_in_gold": public_side.write_stand_in_gold, "write_baseline": write_baseline,
            "write_sample_gold": write_sample_gold, "write_benchmark_input": write_benchmark_input}
