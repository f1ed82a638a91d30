"""Track ``flc``: NLP4IF-2019 fragment-level classification of propaganda in news articles.

18 techniques, character spans; partial-overlap precision/recall/F1 summed over all
(prediction, gold) pairs of one technique in one article, as the official ``task-FLC_scorer.py``:
gold spans of one technique that share a character are merged first. Metric card: ``flc.md``.

Gold: a folder ``nlp4if2019_flc/`` in the official layout (``article<ID>...labels`` files, one per
article, empty for an article without propaganda; optional ``article<ID>.txt`` texts bound the
offsets), or one TSV ``nlp4if2019_flc.tsv`` (a line holding only an article id declares an article
without spans). Submission: ``nlp4if2019_flc.tsv``, lines ``article_id TAB technique TAB start TAB end``.
The layout, its reading, the public side and the baseline are ``article_folder.ArticleFolder``'s.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Dict, List, Tuple

from ..machinery import span_metric
from ..machinery.article_folder import ArticleFolder
from ..readers.options import Options
from ..readers.result import TrackResult
from ..machinery.techniques import NLP4IF2019_FLC

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

NAME = "flc"
TITLE = "NLP4IF-2019 FLC: propaganda techniques and their spans in news articles"
TECHNIQUES = NLP4IF2019_FLC
GOLD_FOLDER = "nlp4if2019_flc"  # the gold in ref/: a folder in the official layout
FILE_NAME = "nlp4if2019_flc.tsv"  # (and the gold as one TSV)
GOLD_NAMES = (GOLD_FOLDER, FILE_NAME)
KEYS = span_metric.span_keys(NAME)  # ("flc_f1", "flc_precision", "flc_recall")
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = ((NAME, "flc_f1"),)
POOLED_KEYS = KEYS
RELEASED_GOLD = {"train": "train-labels-FLC"}  # the PTC folder of article<ID>.task-FLC.labels files
ALL_TECHNIQUES = "(any technique)"  # the single label of the fragments-only mode
SETTINGS = ("overlapping_predictions", "per_technique_recall", "flc_ignore_techniques")

LAYOUT = ArticleFolder(GOLD_FOLDER, FILE_NAME, ".task-FLC.labels", TECHNIQUES)


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    collapse = options.flc_ignore_techniques
    result = LAYOUT.score(NAME, TITLE, gold_path, submission_path, name, options, reference_dir,
                          any_technique=ALL_TECHNIQUES if collapse else None)
    if collapse:
        result.notes.append("Fragments only: techniques are ignored (official -f mode).")
    return result


def in_memory_scores(gold_path: str, submission_path: str, name: str) -> Dict[str, float]:
    """The card's in-memory entry point, ``span_metric.span_scores(gold, predicted)``, on the files'
    articles (``ArticleFolder.in_memory_scores``)."""
    scores = LAYOUT.in_memory_scores(gold_path, submission_path, name, Options().overlapping_predictions)
    return dict(zip(KEYS, (scores["f1"], scores["precision"], scores["recall"])))


def prediction_digests(submission_path: str, name: str, options: Options) -> Dict[str, bytes]:
    """Each article's spans as scored (``ArticleFolder.prediction_digests``): without their
    techniques in the fragments-only mode."""
    return LAYOUT.prediction_digests(submission_path, name, options,
                                     ALL_TECHNIQUES if options.flc_ignore_techniques else None)


# The scores from the totals of the per-item statistics (a row per article: the four sums of each
# technique; ``span_metric``).
aggregate = span_metric.aggregate
reference_data_problem = LAYOUT.reference_data_problem

# --- the public side (bundle build, starting kit): the inputs without the answers ---------------

write_public_input = LAYOUT.write_public_input
public_ids = LAYOUT.public_ids
is_public_input = LAYOUT.is_public_input
write_stand_in_gold = LAYOUT.write_stand_in_gold

# Technique frequencies of the NLP4IF-2019 training gold (350 articles), in TECHNIQUES order.
TRAINING_FREQUENCIES = (116, 239, 13, 109, 201, 490, 479, 240, 2115, 1085, 11, 33, 54, 571, 136, 13, 79, 57)


def _training_technique(rng: "random.Random") -> str:
    return rng.choices(TECHNIQUES, weights=TRAINING_FREQUENCIES)[0]


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """The baseline: a third of the sentences, at random, as spans (``article_public.sentence_spans``);
    techniques drawn with the training frequencies."""
    return LAYOUT.write_baseline(public_dir, out_dir, filename, seed, _training_technique)


# --- sample gold and benchmark inputs (tools/make_sample_data.py, benchmarks/run.py) -------------


# (sentence, technique) pieces from which sample articles are assembled; None = no technique.
SAMPLE_SENTENCES = (
    ("The council met on Tuesday to discuss the new budget.", None),
    ("Critics called the plan an outrageous betrayal of hard-working families.", "Loaded_Language"),
    ("The mayor, a notorious puppet of the developers, refused to comment.", "Name_Calling,Labeling"),
    ("Experts from the national academy endorsed the proposal.", "Appeal_to_Authority"),
    ("If the plan passes, our children will have no future at all.", "Appeal_to_fear-prejudice"),
    ("Everybody in the region already supports the reform.", "Bandwagon"),
    ("You are either with the taxpayers or against them.", "Black-and-White_Fallacy"),
    ("Unemployment rose only because of the new bridge.", "Causal_Oversimplification"),
    ("Can anyone really trust these numbers?", "Doubt"),
    ("This is the greatest scandal the town has ever seen.", "Exaggeration,Minimisation"),
    ("Patriots must defend the values of our nation.", "Flag-Waving"),
    ("The report was long and its conclusions were vague in every possible way.",
     "Obfuscation,Intentional_Vagueness,Confusion"),
    ("Meanwhile, the weather was unusually warm this week.", "Red_Herring"),
    ("Such methods were also used by the Nazis.", "Reductio_ad_hitlerum"),
    ("Betrayal, betrayal, betrayal: that is all we get.", "Repetition"),
    ("Stop the steal of our streets!", "Slogans"),
    ("So the opposition wants to abolish all roads.", "Straw_Men"),
    ("That is just how things are, end of discussion.", "Thought-terminating_Cliches"),
    ("And what about the previous mayor's expenses?", "Whataboutism"),
    ("Residents can read the full text of the budget online.", None),
    ("The vote is expected next month.", None),
)
SAMPLE_ARTICLES = 24  # per split


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: a gold folder of articles (texts and ``.labels`` files) with
    spans of different techniques overlapping, and articles without propaganda."""
    from ..machinery.public_input import write_text
    from ..machinery.sample_text import first_id, sample_rng
    rng = sample_rng(seed, NAME, split)
    target = os.path.join(folder, GOLD_FOLDER)
    base = 700000000 + first_id(split) * 1000
    for n in range(SAMPLE_ARTICLES):
        article = str(base + 37 * n)
        sentences = rng.sample(SAMPLE_SENTENCES, rng.randint(4, 9))
        if n % 6 == 2:
            sentences = [s for s in sentences if s[1] is None] or [SAMPLE_SENTENCES[0]]
        text, spans = "Local news\n\n", []
        for sentence, technique in sentences:
            start = len(text)
            text += sentence + " "
            if technique:
                spans.append((technique, start, start + len(sentence)))
                if technique != "Loaded_Language" and rng.random() < 0.3:  # cross-technique overlap
                    spans.append(("Loaded_Language", start, start + sentence.index(" ", 6)))
        write_text(os.path.join(target, "article%s.txt" % article), text.rstrip() + "\n")
        write_text(os.path.join(target, "article%s.task-FLC.labels" % article),
                   "".join("%s\t%s\t%d\t%d\n" % (article, t, s, e) for t, s, e in spans))
    return [GOLD_FOLDER + "/"]


BENCHMARK = {"oracle": "spans"}


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold in ``ref/`` and a submission in ``res/``; ×1 ≈ the NLP4IF training set: 350 articles,
    ~6k gold and ~5k predicted spans (each gold span found with 80% chance, shifted a little, 20%
    of them with another technique; plus false alarms)."""
    ref = os.path.join(input_dir, "ref", GOLD_FOLDER)
    os.makedirs(ref)
    predictions = []
    for a in range(350 * scale):
        article = str(700000000 + a)
        length = rng.randint(1500, 9000)
        gold = []
        for _ in range(max(0, int(rng.gauss(17, 9)))):
            start = rng.randrange(0, length - 200)
            gold.append((rng.choice(TECHNIQUES), start, start + rng.randint(3, 180)))
        kept, last_end = [], {}  # type: List[Tuple[str, int, int]], Dict[str, int]
        for technique, start, end in sorted(gold):  # no same-technique overlap, as in the real gold
            if start >= last_end.get(technique, -1):
                kept.append((technique, start, end))
                last_end[technique] = end
        with open(os.path.join(ref, "article%s.task-FLC.labels" % article), "w", encoding="utf-8") as handle:
            handle.writelines("%s\t%s\t%d\t%d\n" % (article, t, s, e) for t, s, e in kept)
        last_end = {}
        guesses = list(kept) + [(rng.choice(TECHNIQUES), start, start + rng.randint(3, 120))  # false alarms
                                for start in (rng.randrange(0, length - 200) for _ in range(rng.randint(0, 6)))]
        for technique, start, end in sorted(guesses):
            if rng.random() < 0.8:
                start = max(0, start + rng.randint(-15, 15))
                end = max(start + 1, end + rng.randint(-15, 15))
                if rng.random() < 0.2:
                    technique = rng.choice(TECHNIQUES)
                if start >= last_end.get(technique, -1):
                    predictions.append((article, technique, start, end))
                    last_end[technique] = end
    with open(os.path.join(input_dir, "res", FILE_NAME), "w", encoding="utf-8") as handle:
        handle.writelines("%s\t%s\t%d\t%d\n" % row for row in predictions)
