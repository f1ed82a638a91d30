"""Track ``t11_si``: SemEval-2020 Task 11, subtask SI, propaganda spans in news articles.

Spans without techniques; partial-overlap precision/recall/F1 over all (prediction, gold) pairs of
one article, as the official ``task-SI_scorer.py -m``: gold spans that share a character are
merged, and so, by default, are a submission's (``SETTING_DEFAULTS``). Metric card: ``t11_si.md``.

Gold: a folder ``semeval2020_t11_si/`` of ``article<ID>.task-SI.labels`` files with the
``article<ID>.txt`` texts, or one TSV (the released ``dev-task-SI.labels``). Submission:
``semeval2020_t11_si.tsv``, lines ``article_id TAB start TAB end``. The layout is
``article_folder.ArticleFolder``'s; this module is its declarations and its sample data.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Dict, List, Tuple

from ..machinery import span_metric
from ..machinery.article_folder import ArticleFolder
from ..readers.options import Options
from ..readers.result import TrackResult

if TYPE_CHECKING:
    import random

NAME = "t11_si"
TITLE = "SemEval-2020 Task 11 SI: propaganda spans in news articles"
GOLD_FOLDER = "semeval2020_t11_si"
FILE_NAME = "semeval2020_t11_si.tsv"
GOLD_NAMES = (GOLD_FOLDER, FILE_NAME)
KEYS = span_metric.span_keys(NAME)  # ("t11_si_f1", "t11_si_precision", "t11_si_recall")
LEADERBOARDS = ((NAME, "t11_si_f1"),)
POOLED_KEYS = KEYS
RELEASED_GOLD = {"dev": "dev-task-SI.labels"}
SETTINGS = ("overlapping_predictions",)
SETTING_DEFAULTS = {"overlapping_predictions": "merge"}  # the official README always runs -m
BENCHMARK = {"oracle": "spans"}

LAYOUT = ArticleFolder(GOLD_FOLDER, FILE_NAME, ".task-SI.labels", ("propaganda",), technique_column=False)


def score(gold_path: str, submission_path: str, name: str, options: Options, reference_dir: str) -> TrackResult:
    return LAYOUT.score(NAME, TITLE, gold_path, submission_path, name, options, reference_dir, table=False)


def in_memory_scores(gold_path: str, submission_path: str, name: str) -> Dict[str, float]:
    """The card's ``span_metric.span_scores(gold, predicted, "merge")`` on the files' articles."""
    scores = LAYOUT.in_memory_scores(gold_path, submission_path, name, "merge")
    return dict(zip(KEYS, (scores["f1"], scores["precision"], scores["recall"])))


aggregate = span_metric.aggregate
prediction_digests = LAYOUT.prediction_digests
reference_data_problem = LAYOUT.reference_data_problem
write_public_input = LAYOUT.write_public_input
public_ids = LAYOUT.public_ids
is_public_input = LAYOUT.is_public_input
write_stand_in_gold = LAYOUT.write_stand_in_gold


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    return LAYOUT.write_baseline(public_dir, out_dir, filename, seed)


def _write_article(folder: str, article: str, text: str, spans: List[Tuple[int, int]]) -> None:
    """One gold article in ``folder/<GOLD_FOLDER>``: its text and its ``.labels`` file."""
    from ..machinery.public_input import write_text
    target = os.path.join(folder, GOLD_FOLDER)
    write_text(os.path.join(target, "article%s.txt" % article), text)
    write_text(os.path.join(target, "article%s%s" % (article, LAYOUT.label_suffix)),
               "".join("%s\t%d\t%d\n" % (article, start, end) for start, end in spans))


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """Articles of random sentences, a quarter of them propaganda spans, some overlapping."""
    from ..machinery.sample_text import first_id, sample_rng, sentence
    rng = sample_rng(seed, NAME, split)
    for n in range(20):
        article, text, spans = str(800000000 + first_id(split) * 1000 + n), "", []
        for _ in range(rng.randint(3, 8)):
            words = sentence(rng, rng.randint(5, 14))
            if rng.random() < 0.25:
                spans.append((len(text), len(text) + len(words)))
                if rng.random() < 0.3:
                    spans.append((len(text), len(text) + words.index(" ")))
            text += words + " "
        _write_article(folder, article, text.rstrip() + "\n", spans)
    return [GOLD_FOLDER + "/"]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """x1 = the SI training set's size: 371 articles, ~6k gold spans; predictions are the gold
    shifted a little, with 80% recall, plus false alarms."""
    os.makedirs(os.path.join(input_dir, "ref", GOLD_FOLDER))
    rows = []
    for a in range(371 * scale):
        article, length = str(800000000 + a), rng.randint(1500, 9000)
        starts = sorted(rng.randrange(0, length - 200) for _ in range(max(0, int(rng.gauss(16, 8)))))
        gold = [(start, start + rng.randint(3, 180)) for start in starts]
        _write_article(os.path.join(input_dir, "ref"), article, "x" * length, gold)
        for start, end in gold:
            if rng.random() < 0.8:
                start = max(0, start + rng.randint(-15, 15))
                rows.append("%s\t%d\t%d\n" % (article, start, max(start + 1, end + rng.randint(-15, 15))))
        rows.extend("%s\t%d\t%d\n" % (article, start, start + rng.randint(3, 120))
                    for start in (rng.randrange(0, length - 200) for _ in range(rng.randint(0, 4))))
    with open(os.path.join(input_dir, "res", FILE_NAME), "w", encoding="utf-8") as handle:
        handle.writelines(rows)
