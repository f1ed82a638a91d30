"""Track ``t6_st3``: SemEval-2021 Task 6 subtask 3, persuasion techniques in the whole meme.

Multilabel classification over 22 techniques (the 20 of subtask 1 plus "Transfer" and
"Appeal to (Strong) Emotions"); micro-F1 (official ranking) and macro-F1 with ``zero_division=1``.
Metric card: ``t6_st3.md`` beside this file. What this module writes is what subtask 3 is; the
rest of its declarations are the meme family's (``meme_multilabel.meme_track_declarations``).
"""

from __future__ import annotations

from ..machinery.meme_multilabel import meme_track_declarations
from ..machinery.techniques import SEMEVAL2021_T6_ST3

NAME = "t6_st3"
TITLE = "SemEval-2021 Task 6, subtask 3: techniques in the whole meme"
FILE_NAME = "semeval2021_t6_st3.json"
TECHNIQUES = SEMEVAL2021_T6_ST3
RELEASED_GOLD = {"dev": "dev_set_task3_labeled.txt", "test": "test_set_task3.txt"}  # (train: JSON Lines only)
MAJORITY = "Smears"  # the most frequent technique of the training and dev gold
PUBLIC_FIELDS = ("id", "text", "image")


def sample_record(meme):
    """A sample meme's record: the techniques of text and image."""
    return {"id": meme.id, "labels": meme.techniques + meme.image_techniques, "text": meme.text, "image": meme.image}


# GOLD_NAMES, KEYS, LEADERBOARDS, POOLED_KEYS, score, aggregate, in_memory_scores, prediction_digests,
# the public side, write_baseline, write_sample_gold, write_benchmark_input
globals().update(meme_track_declarations(NAME, TITLE, FILE_NAME, TECHNIQUES, MAJORITY, PUBLIC_FIELDS, sample_record))
