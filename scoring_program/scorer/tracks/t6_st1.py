"""Track ``t6_st1``: SemEval-2021 Task 6 subtask 1, persuasion techniques in the text of memes.

Multilabel classification over 20 techniques; micro-F1 (official ranking) and macro-F1, both with
scikit-learn's ``zero_division=1``. Metric card: ``t6_st1.md`` beside this file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List

from ..machinery import multilabel
from ..machinery.meme_multilabel import in_memory_multilabel_scores, score_multilabel
from ..machinery.public_input import MemeList
from ..readers.options import Options
from ..readers.result import TrackResult
from ..machinery.techniques import SEMEVAL2021_T6_ST1_ST2

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

NAME = "t6_st1"
FILE_NAME = "semeval2021_t6_st1.json"
TITLE = "SemEval-2021 Task 6, subtask 1: techniques in meme text"
GOLD_NAMES = (FILE_NAME,)
KEYS = multilabel.multilabel_keys(NAME)  # ("t6_st1_f1_micro", "t6_st1_f1_macro")
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = ((NAME, "t6_st1_f1_micro"),)
POOLED_KEYS = ("t6_st1_f1_micro",)
TECHNIQUES = SEMEVAL2021_T6_ST1_ST2
RELEASED_GOLD = {"train": "training_set_task1.txt", "dev": "dev_set_task1.txt", "test": "test_set_task1.txt"}


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    return score_multilabel(NAME, TITLE, TECHNIQUES,
                            gold_path, submission_path, name, options, reference_dir)


def in_memory_scores(gold_path: str, submission_path: str, name: str) -> Dict[str, float]:
    """The card's in-memory entry point, ``multilabel.multilabel_scores``, on the files' memes."""
    return in_memory_multilabel_scores(NAME, TECHNIQUES, gold_path, submission_path, name)


# The scores from the totals of the per-item statistics (a row per meme: tp, fp, fn per class;
# ``multilabel``, ``meme_multilabel``).
aggregate = multilabel.aggregate


# --- the public side (bundle build, starting kit): the inputs without the answers ---------------

_PUBLIC_SIDE = MemeList(("id", "text"))
write_public_input = _PUBLIC_SIDE.write_public_input
public_ids = _PUBLIC_SIDE.public_ids
write_stand_in_gold = _PUBLIC_SIDE.write_stand_in_gold


MAJORITY = "Loaded Language"  # the most frequent technique of the training and dev gold


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """The task's random baseline (``variant`` "majority": ``MAJORITY`` everywhere)."""
    from ..machinery.meme_multilabel import write_multilabel_baseline
    return write_multilabel_baseline(public_dir, out_dir, filename, TECHNIQUES, MAJORITY, seed, variant)


# --- sample gold and benchmark inputs (tools/make_sample_data.py, benchmarks/run.py) -------------


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: the memes the three subtasks share, with the techniques of their spans."""
    from ..machinery.sample_text import write_sample_memes
    return write_sample_memes(folder, FILE_NAME, split, seed,
                              lambda meme: {"id": meme.id, "labels": meme.techniques, "text": meme.text})


BENCHMARK = {}


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold in ``ref/`` and a submission in ``res/`` at ``scale`` × the test set (200 memes)."""
    from ..machinery.sample_text import write_benchmark_memes
    write_benchmark_memes(input_dir, FILE_NAME, scale, rng, TECHNIQUES, spans=False)
