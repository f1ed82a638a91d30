"""Track ``toy``: a track of one label per sentence, for the test that adds tracks (tests/test_adding_a_track.py).

One label per sentence, "yes" or "no"; ``toy_accuracy`` is the share of sentences whose label is
the gold's. Files: a JSON list ``[{"id", "text", "label"}, ...]`` named ``toy_labels.json`` (gold in
``ref/``, predictions in ``res/``). Metric card: ``toy.md`` beside this file.

Everything the competition needs from a track is declared here, and nothing else in the repository
knows this format: the registry lists the module, competition.yaml gives the column.
"""

from __future__ import annotations

import os
import random
from typing import Any, Dict, List, Optional

from ..readers.options import Options, other_phase_ids
from ..machinery.item_digests import digest
from ..machinery.per_item import ItemStatistics, ScalarOps, column_totals
from ..readers.problems import Problems, reading_reference
from ..machinery.public_input import MemeList, read_json, write_json
from ..readers.records import check_id_sets, json_records, record_limit
from ..readers.result import TrackResult

NAME = "toy"
FILE_NAME = "toy_labels.json"
GOLD_NAMES = (FILE_NAME,)
TITLE = "A toy track: yes or no per sentence"
KEYS = ("toy_accuracy",)
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = (("toy", "toy_accuracy"),)
LABELS = ("yes", "no")


def _read(path: str, name: str, max_bytes: Optional[int], problems: Problems,
          max_records: Optional[int] = None) -> Dict[str, str]:
    labels: Dict[str, str] = {}
    for index, record in json_records(path, name, max_bytes, problems, max_records, "sentences"):
        identifier, label = record.get("id"), record.get("label")
        if not isinstance(identifier, str) or label not in LABELS:
            problems.add("record %d" % (index + 1), "expected a string \"id\" and a \"label\" yes or no")
            continue
        labels[identifier] = label
    return labels


def score(gold_path: str, submission_path: str, name: str, options: Options, reference_dir: str) -> TrackResult:
    gold_problems = Problems(name)
    with reading_reference():
        gold = _read(gold_path, name, None, gold_problems)
    gold_problems.raise_as_reference_error()
    problems = Problems(name)
    submitted = _read(submission_path, name, options.max_file_bytes, problems, record_limit(len(gold)))
    check_id_sets(list(gold), submitted, problems, "sentence ids", other_phases=other_phase_ids(reference_dir, name))
    problems.raise_if_any()
    statistics = ItemStatistics(NAME, list(gold), ["correct", "sentences"],
                                [(int(submitted[identifier] == label), 1) for identifier, label in gold.items()],
                                (), KEYS)
    return TrackResult(track=NAME, title=TITLE, scores=aggregate(statistics, column_totals(statistics)),
                       details={"sentences": len(gold)}, warnings=problems.warnings, statistics=statistics,
                       item_noun="sentence")


def prediction_digests(submission_path: str, name: str, options: Options) -> Dict[str, bytes]:
    """Sentence id -> the digest of its label, as the scorer reads it (the copy detection's items)."""
    problems = Problems(name)
    labels = _read(submission_path, name, options.max_file_bytes, problems)
    problems.raise_if_any()
    return {identifier: digest(label) for identifier, label in labels.items()}


# --- the scores from the column totals of the per-item statistics (one row per sentence) -------------

def aggregate(statistics, totals, ops=ScalarOps, key: Optional[str] = None) -> Dict[str, Any]:
    # Only ops' operations: the totals are numbers here, numpy arrays of resamples in the results tool.
    return {"toy_accuracy": ops.divide(totals["correct"], totals["sentences"], 0.0)}


# --- the public side ----------------------------------------------------------------------------------

_PUBLIC_SIDE = MemeList(("id", "text"))
write_public_input = _PUBLIC_SIDE.write_public_input
public_ids = _PUBLIC_SIDE.public_ids


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    write_json(os.path.join(gold_dir, filename), [dict(record, label="no") for record in read_json(path)])
    return [filename]


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    rng = random.Random(seed)
    write_json(os.path.join(out_dir, filename),
               [{"id": record["id"], "label": rng.choice(LABELS)} for record in read_json(path)])
    return [filename]


# --- sample gold and benchmark inputs -----------------------------------------------------------------

def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    rng = random.Random("%d:%s:%s" % (seed, NAME, split))
    write_json(os.path.join(folder, FILE_NAME), [
        {"id": "%s-%d" % (split, i), "text": "sentence %d" % i, "label": rng.choice(LABELS)} for i in range(12)])
    return [FILE_NAME]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    gold = [{"id": str(i), "text": "sentence %d" % i, "label": rng.choice(LABELS)} for i in range(100 * scale)]
    write_json(os.path.join(input_dir, "ref", FILE_NAME), gold)
    write_json(os.path.join(input_dir, "res", FILE_NAME),
               [{"id": record["id"], "label": rng.choice(LABELS)} for record in gold])
