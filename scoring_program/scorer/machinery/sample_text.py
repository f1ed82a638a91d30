"""Made-up inputs, shared by the track modules: the sample gold of the repository's
``reference_data/`` and the benchmark's generated inputs. Not on the scoring path.

Each track module defines ``write_sample_gold(folder, split, seed)`` and
``write_benchmark_input(input_dir, scale, rng)`` with these helpers; ``tools/make_sample_data.py``
and ``benchmarks/run.py`` only call them. Every text here was written for this repository
(nothing comes from the tasks' data).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .techniques import SEMEVAL2021_T6_ST1_ST2

# The first id of each split's sample gold: the phases' ids never meet (the scorer names an id
# of the other phase as such).
FIRST_ID = {"dev": 100, "test": 500}


def first_id(split: str) -> int:
    if split not in FIRST_ID:
        raise ValueError("no sample data for split %r (known: %s)" % (split, ", ".join(sorted(FIRST_ID))))
    return FIRST_ID[split]


def sample_rng(seed: int, key: str, split: str) -> random.Random:
    """The generator of one track's (or one family's) sample gold of one split. A string seed is
    hashed with SHA-512 (``random.seed``, version 2, Python >= 3.2): the same bytes on every
    Python, and no track's draws depend on another's."""
    return random.Random("%d:%s:%s" % (seed, key, split))


# --- SemEval-2021 Task 6 memes: one set of memes for the three subtasks -------------------------

# (fragment, technique) pieces from which meme texts are assembled; None = no technique.
MEME_PIECES: Tuple[Tuple[str, Optional[str]], ...] = (
    ("THEY LIED TO YOU AGAIN", "Smears"),
    ("the radical mob wants your job", "Appeal to fear/prejudice"),
    ("Disgusting traitors", "Name calling/Labeling"),
    ("MAKE OUR TOWN PROUD AGAIN", "Slogans"),
    ("Everyone is already switching", "Bandwagon"),
    ("Either you stand with us or with the criminals", "Black-and-white Fallacy/Dictatorship"),
    ("Doctors agree", "Appeal to authority"),
    ("a total catastrophe", "Loaded Language"),
    ("the worst decision in human history", "Exaggeration/Minimisation"),
    ("Raise the flag, love your country", "Flag-waving"),
    ("Prices went up because of one man", "Causal Oversimplification"),
    ("Is it really a coincidence?", "Doubt"),
    ("It is what it is.", "Thought-terminating clich\u00e9"),
    ("But what about their scandals?", "Whataboutism"),
    ("Freedom. Family. Faith.", "Glittering generalities (Virtue)"),
    ("So you want criminals on every street", "Misrepresentation of Someone's Position (Straw Man)"),
    ("He is just like Hitler", "Reductio ad hitlerum"),
    ("Meanwhile, look at this cute dog", "Presenting Irrelevant Data (Red Herring)"),
    ("Think about it", None),
    ("Monday again", None),
    ("when the coffee kicks in", None),
    ("Share if you agree", None),
)
MEME_COUNT = 36  # per split
IMAGE_TECHNIQUES = ("Transfer", "Appeal to (Strong) Emotions")  # subtask 3 only: in the image


class SampleMeme:
    """One sample meme: its spans (ST2), its text techniques in the subtasks' order (ST1), and
    the techniques only its image shows (ST3 adds them)."""

    __slots__ = ("id", "text", "spans", "techniques", "image_techniques", "image")

    def __init__(self, identifier: str, text: str, spans: List[Dict[str, Any]], techniques: List[str],
                 image_techniques: List[str], image: str) -> None:
        self.id, self.text, self.spans = identifier, text, spans
        self.techniques, self.image_techniques, self.image = techniques, image_techniques, image


def sample_memes(seed: int, split: str) -> List[SampleMeme]:
    """The memes of a split, the same for the three subtasks (as in the task: one set of memes):
    multi-label memes and memes without techniques, spans of different techniques overlapping."""
    rng = sample_rng(seed, "semeval2021_t6", split)
    base = first_id(split)
    memes = []
    for n in range(MEME_COUNT):
        identifier = "%d%s" % (base + n, "_batch_2" if n % 5 == 4 else "")
        pieces = rng.sample(MEME_PIECES, rng.choice([1, 1, 2, 2, 3, 4]))
        if n % 7 == 3:
            pieces = [p for p in pieces if p[1] is None] or [("Good morning", None)]
        text, spans = "", []  # type: str, List[Dict[str, Any]]
        for fragment, technique in pieces:
            start = len(text)
            text += fragment + "\n"
            if technique:
                spans.append({"start": start, "end": start + len(fragment), "technique": technique,
                              "text_fragment": fragment})
        if spans and n % 4 == 1:  # a span of another technique overlapping the first one
            first = spans[0]
            other = rng.choice([t for t in ("Loaded Language", "Exaggeration/Minimisation")
                                if t != first["technique"]])
            space = text.find(" ", first["start"] + 3, first["end"])  # the first word or two
            end = first["end"] if space < 0 else space
            spans.append({"start": first["start"], "end": end, "technique": other,
                          "text_fragment": text[first["start"]:end]})
        text = text.rstrip("\n")
        techniques = sorted({span["technique"] for span in spans}, key=SEMEVAL2021_T6_ST1_ST2.index)
        image_techniques = [t for t in IMAGE_TECHNIQUES if rng.random() < 0.3]
        memes.append(SampleMeme(identifier, text, spans, techniques, image_techniques,
                                "%s.png" % identifier.replace("_batch_2", "_image_batch_2")))
    return memes


# --- benchmark inputs ----------------------------------------------------------------------------

WORDS = ("the of and to in is that it for was on are with as they be at this have from or one had by "
         "but not what all were when we there can an your which their said if do will each about how up "
         "out them then she many some so these would other into has more her two like him see time could "
         "no make than first been its who now people my made over did down only way find use may water "
         "long little very after words called just where most know get through back much before go good "
         "new write our used me man too any day same right look think also around another came come work "
         "three word must because does part even place well such here take why things help put years "
         "different away again off went old number great tell men say small every found still between name "
         "should home big give air line set own under read last never us left end along while might next "
         "sound below saw something thought both few those always looked show large often together asked "
         "house don't world going want school important until form food keep children feet land side without "
         "boy once animals life enough took sometimes four head above kind began almost live page got earth "
         "need far hand high year mother light parts country father let night following picture being study "
         "second eyes soon times story boys since white days ever paper hard near sentence better best across "
         "during today others however sure means knew it's try told young miles sun ways thing whole hear "
         "example heard several change answer room sea against top turned learn point city play toward five "
         "using himself usually").split()


def sentence(rng: random.Random, n: int) -> str:
    """``n`` frequent English words as a sentence."""
    words = [rng.choice(WORDS) for _ in range(n)]
    words[0] = words[0].capitalize()
    return " ".join(words) + rng.choice([".", ".", "?", "!", ","])


def benchmark_memes(scale: int, rng: random.Random, classes: Sequence[str],
                    spans: bool) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """(gold, predicted) memes: ×1 = the SemEval-2021 T6 test set, 200 memes (403 spans for ST2).
    ``spans``: labels are spans (ST2), else technique names (ST1, ST3). The draws of the three
    subtasks are the same but for the class list."""
    gold, predicted = [], []
    for m in range(200 * scale):
        text = " ".join(sentence(rng, rng.randint(4, 14)) for _ in range(rng.randint(1, 4)))
        labels = []
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
            start = rng.randrange(0, max(1, len(text) - 10))
            labels.append({"technique": rng.choice(classes), "start": start,
                           "end": min(len(text), start + rng.randint(5, 60))})
        if spans:
            labels = no_same_overlap(labels)
            gold.append({"id": str(m), "text": text, "labels": labels})
            guess = no_same_overlap([dict(l, start=max(0, l["start"] - rng.randint(0, 8))) for l in labels
                                     if rng.random() < 0.7])
            predicted.append({"id": str(m), "labels": guess})
        else:
            names = sorted({l["technique"] for l in labels})
            gold.append({"id": str(m), "labels": names, "text": text})
            predicted.append({"id": str(m), "labels": [n for n in names if rng.random() < 0.6]
                              + ([rng.choice(classes)] if rng.random() < 0.4 else [])})
    return gold, predicted


def no_same_overlap(labels: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The spans that do not overlap an earlier span of their technique (as in the real gold)."""
    kept, last = [], {}  # type: List[Dict[str, Any]], Dict[str, int]
    for label in sorted(labels, key=lambda l: (l["technique"], l["start"])):
        if label["start"] >= last.get(label["technique"], -1) and label["start"] < label["end"]:
            kept.append(label)
            last[label["technique"]] = label["end"]
    return kept


def write_sample_memes(folder: str, filename: str, split: str, seed: int,
                       record: Callable[[SampleMeme], Dict[str, Any]]) -> List[str]:
    """A meme track's sample gold: ``record(meme)`` for each of ``sample_memes``; [filename]."""
    import os
    from .public_input import write_json
    write_json(os.path.join(folder, filename), [record(meme) for meme in sample_memes(seed, split)])
    return [filename]


def write_benchmark_memes(input_dir: str, filename: str, scale: int, rng: random.Random,
                          classes: Sequence[str], spans: bool) -> None:
    """A meme track's benchmark input (``benchmark_memes``): ``ref/filename`` and ``res/filename``
    as compact JSON."""
    import json
    import os
    for side, value in zip(("ref", "res"), benchmark_memes(scale, rng, classes, spans)):
        with open(os.path.join(input_dir, side, filename), "w", encoding="utf-8") as handle:
            json.dump(value, handle)
