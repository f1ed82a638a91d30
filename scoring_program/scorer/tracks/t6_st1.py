"""Track ``t6_st1``: SemEval-2021 Task 6 subtask 1, persuasion techniques in the text of memes.

Multilabel classification over 20 techniques; micro-F1 (official ranking) and macro-F1, both with
scikit-learn's ``zero_division=1``. Metric card: ``t6_st1.md`` beside this file. What this module
writes is what subtask 1 is; the rest of its declarations are the meme family's
(``meme_multilabel.meme_track_declarations``).
"""

from __future__ import annotations

from ..machinery.meme_multilabel import meme_track_declarations
from ..machinery.techniques import SEMEVAL2021_T6_ST1_ST2

NAME = "t6_st1"
TITLE = "SemEval-2021 Task 6, subtask 1: techniques in meme text"
FILE_NAME = "semeval2021_t6_st1.json"
TECHNIQUES = SEMEVAL2021_T6_ST1_ST2
RELEASED_GOLD = {"train": "training_set_task1.txt", "dev": "dev_set_task1.txt", "test": "test_set_task1.txt"}
MAJORITY = "Loaded Language"  # the most frequent technique of the training and dev gold
PUBLIC_FIELDS = ("id", "text")


def sample_record(meme):
    """A sample meme's record: the techniques of its spans."""
    return {"id": meme.id, "labels": meme.techniques, "text": meme.text}


# GOLD_NAMES, KEYS, LEADERBOARDS, POOLED_KEYS, score, aggregate, in_memory_scores, prediction_digests,
# the public side, write_baseline, write_sample_gold, write_benchmark_input
globals().update(meme_track_declarations(NAME, TITLE, FILE_NAME, TECHNIQUES, MAJORITY, PUBLIC_FIELDS, sample_record))
