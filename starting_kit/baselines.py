"""Baselines for every track, deterministic with a seed (standard library only).

The random baselines re-create the behaviour of the original tasks' baseline scripts (same random
draws from ``random.Random(42)``), so their scores match the published baseline figures; the
majority baselines predict the most frequent technique of the training gold everywhere.

    python3 baselines.py PUBLIC_DATA_DIR OUTPUT_DIR [--multilabel random|majority] [--seed 42]

writes one submission file per track found in PUBLIC_DATA_DIR (the phase's public inputs) into
OUTPUT_DIR; zip the *contents* of OUTPUT_DIR to submit.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import re
from typing import Any, Dict, List, Sequence

# The most frequent technique in the training and dev gold of each multilabel subtask.
MAJORITY_ST1 = "Loaded Language"
MAJORITY_ST3 = "Smears"


def random_labels(records: Sequence[Dict[str, Any]], techniques: Sequence[str],
                  seed: int = 42) -> List[Dict[str, Any]]:
    """SemEval-2021 T6 ST1/ST3 random baseline: per meme, while a fair coin says so, add a
    technique drawn uniformly from those not drawn yet for this meme."""
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
    return [{"id": record["id"], "labels": [technique]} for record in records]


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


# --- the other tracks ------------------------------------------------------------------------------

FLC_TECHNIQUES = (
    "Appeal_to_Authority", "Appeal_to_fear-prejudice", "Bandwagon", "Black-and-White_Fallacy",
    "Causal_Oversimplification", "Doubt", "Exaggeration,Minimisation", "Flag-Waving", "Loaded_Language",
    "Name_Calling,Labeling", "Obfuscation,Intentional_Vagueness,Confusion", "Red_Herring",
    "Reductio_ad_hitlerum", "Repetition", "Slogans", "Straw_Men", "Thought-terminating_Cliches",
    "Whataboutism",
)
# Technique frequencies of the NLP4IF-2019 training gold (350 articles), for a weighted draw.
FLC_WEIGHTS = (116, 239, 13, 109, 201, 490, 479, 240, 2115, 1085, 11, 33, 54, 571, 136, 13, 79, 57)


def random_flc_spans(articles: Dict[str, str], seed: int = 42) -> List[tuple]:
    """NLP4IF FLC: a third of the sentences, at random, as spans; techniques drawn with the training
    frequencies.

    One span per chosen sentence, so spans never overlap (a valid submission by default).
    """
    rng = random.Random(seed)
    rows = []
    for article, text in articles.items():
        sentences = [m.span() for m in re.finditer(r"[^.!?\n]+[.!?]?", text) if m.group().strip()]
        wanted = max(1, len(sentences) // 3) if sentences else 0
        for start, end in sorted(rng.sample(sentences, min(wanted, len(sentences)))):
            while start < end and text[start].isspace():
                start += 1
            if start < end:
                technique = rng.choices(FLC_TECHNIQUES, weights=FLC_WEIGHTS)[0]
                rows.append((article, technique, start, end))
    return rows


def whole_text_answers(rows: Sequence[Sequence[str]]) -> List[tuple]:
    """AI CUP 2022 NLU: the whole q and r as the explanation (the organisers' raw baseline)."""
    return [(row[0], row[1], row[2]) for row in rows]


# Frequent aspect terms of the ATE_ABSITA training data (lower-cased), most frequent first.
FREQUENT_ASPECTS = ("prezzo", "qualità", "batteria", "spedizione", "prodotto", "qualità prezzo",
                    "schermo", "design", "suono", "custodia", "materiale", "funzionamento")
MEAN_TRAINING_SCORE = 4.463  # the mean review score of the training set (the organiser's baseline)


def frequent_aspects(reviews: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """EVALITA 2020 ABSITA: every frequent aspect term found in the review, positive; mean score."""
    predictions = []
    for review in reviews:
        sentence = review.get("sentence", "").lower()
        aspects = [term for term in FREQUENT_ASPECTS if re.search(r"\b%s\b" % re.escape(term), sentence)]
        predictions.append({"id_sentence": review["id_sentence"], "aspects": aspects,
                            "polarities": [[1, 0] for _ in aspects], "score": MEAN_TRAINING_SCORE})
    return predictions


# --- the command line --------------------------------------------------------------------------------

def _load_json(path: str) -> Any:
    with open(path, encoding="utf-8-sig") as handle:
        return json.load(handle)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def write_submission(public_dir: str, out_dir: str, multilabel: str = "random", seed: int = 42) -> List[str]:
    """One submission file per track whose public input is in ``public_dir``."""
    from techniques import ST1_ST2, ST3  # the class lists, a copy of the scoring program's

    os.makedirs(out_dir, exist_ok=True)
    written = []
    for name, classes, majority in (("semeval2021_t6_st1.json", ST1_ST2, MAJORITY_ST1),
                                    ("semeval2021_t6_st3.json", ST3, MAJORITY_ST3)):
        path = os.path.join(public_dir, name)
        if os.path.isfile(path):
            records = _load_json(path)
            predictions = random_labels(records, classes, seed) if multilabel == "random" \
                else majority_labels(records, majority)
            _write(os.path.join(out_dir, name), json.dumps(predictions, indent=1, ensure_ascii=False) + "\n")
            written.append(name)
    path = os.path.join(public_dir, "semeval2021_t6_st2.json")
    if os.path.isfile(path):
        predictions = random_spans(_load_json(path), ST1_ST2, seed, as_published=False)
        _write(os.path.join(out_dir, "semeval2021_t6_st2.json"), json.dumps(predictions, indent=1) + "\n")
        written.append("semeval2021_t6_st2.json")
    folder = os.path.join(public_dir, "nlp4if2019_flc")
    if os.path.isdir(folder):
        with open(os.path.join(folder, "articles.txt"), encoding="utf-8") as handle:
            ids = [line.strip() for line in handle if line.strip()]
        texts = {}
        for article in ids:
            text_path = os.path.join(folder, "article%s.txt" % article)
            if os.path.isfile(text_path):
                with open(text_path, encoding="utf-8-sig") as handle:
                    texts[article] = handle.read()
            else:
                texts[article] = ""
        rows = random_flc_spans(texts, seed)
        _write(os.path.join(out_dir, "nlp4if2019_flc.tsv"), "".join("%s\t%s\t%d\t%d\n" % row for row in rows))
        written.append("nlp4if2019_flc.tsv")
    path = os.path.join(public_dir, "aicup2022_nlu_test.csv")
    if os.path.isfile(path):
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = [row for row in csv.reader(handle) if row][1:]  # skip the header id,q,r,s
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(("id", "q", "r"))
        writer.writerows(whole_text_answers(rows))
        _write(os.path.join(out_dir, "aicup2022_nlu.csv"), buffer.getvalue())
        written.append("aicup2022_nlu.csv")
    path = os.path.join(public_dir, "evalita2020_absita.ndjson")
    if os.path.isfile(path):
        with open(path, encoding="utf-8-sig") as handle:
            reviews = [json.loads(line) for line in handle if line.strip()]
        _write(os.path.join(out_dir, "evalita2020_absita.ndjson"),
               "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in frequent_aspects(reviews)))
        written.append("evalita2020_absita.ndjson")
    return written


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(description="Write baseline submissions from a phase's public inputs.")
    parser.add_argument("public_dir", help="the phase's public data (unzipped)")
    parser.add_argument("out_dir", help="where to write the submission files")
    parser.add_argument("--multilabel", choices=("random", "majority"), default="random",
                        help="ST1/ST3 baseline (default: the tasks' random baseline)")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    written = write_submission(args.public_dir, args.out_dir, args.multilabel, args.seed)
    if not written:
        parser.error("no public input of any track in %s" % args.public_dir)
    for name in written:
        print("wrote", os.path.join(args.out_dir, name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
