#!/usr/bin/env python3
"""Writes the sample gold of ``reference_data/dev`` and ``reference_data/test`` (all six tracks).

Every text here was written for this repository (nothing comes from the tasks' data); the shapes
follow the real data: multi-label memes and memes without techniques, overlapping spans of
different techniques, articles without propaganda, several accepted answers per nlu id, an nlu
test input with unscored ids, reviews without aspects. Deterministic: the same seed writes the same
bytes. Organisers replace these folders with the private gold (``build_bundle.py --reference-data``).

    python3 tools/make_sample_data.py [--seed 2026] [--out reference_data]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import sys
from typing import Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))

from scorer.techniques import SEMEVAL2021_T6_ST1_ST2  # noqa: E402

# (fragment, technique) pieces from which meme texts are assembled; None = no technique.
MEME_PIECES: List[Tuple[str, object]] = [
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
]

ARTICLE_SENTENCES: List[Tuple[str, object]] = [
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
]

NLU_TOPICS = [
    ("evolution", "Evolution explains the diversity of life , and fossils show gradual change over time .",
     "If evolution were true , why do we still see monkeys today ? That makes no sense to me ."),
    ("guns", "Gun ownership is a right , and responsible citizens should not be punished for crimes of others .",
     "Rights come with duties . Background checks do n't punish anyone , they just keep weapons from criminals ."),
    ("death penalty", "The death penalty deters murder because people fear losing their own lives .",
     "Studies show no clear deterrent effect , and innocent people have been executed by mistake ."),
    ("abortion", "A fetus is a human life from conception , so ending it is wrong .",
     "Personhood is a legal question , and women must decide about their own bodies ."),
    ("climate", "The climate has always changed naturally , so humans are not to blame .",
     "Natural change happens over millennia ; today 's warming took only a century and matches emissions ."),
    ("god", "The universe needs a first cause , and that cause is what we call God .",
     "Even if there were a first cause , nothing tells us it is a personal god who cares about us ."),
]

REVIEW_PARTS = [
    ("la batteria", "dura tantissimo", [1, 0]), ("la batteria", "si scarica in fretta", [0, 1]),
    ("lo schermo", "\u00e8 luminoso e nitido", [1, 0]), ("lo schermo", "si graffia facilmente", [0, 1]),
    ("la spedizione", "\u00e8 stata velocissima", [1, 0]), ("la spedizione", "\u00e8 arrivata in ritardo", [0, 1]),
    ("il prezzo", "\u00e8 onesto", [1, 0]), ("il prezzo", "\u00e8 un po' alto", [0, 1]),
    ("la qualit\u00e0 costruttiva", "\u00e8 discreta", [0, 0]), ("il manuale di istruzioni", "\u00e8 chiaro ma corto", [1, 1]),
    ("il caricabatterie", "funziona bene", [1, 0]), ("la custodia", "\u00e8 fragile", [0, 1]),
    ("mantenere la temperatura", "riesce per ore", [1, 0]), ("il suono", "\u00e8 potente", [1, 0]),
]
REVIEW_FILLERS = ["Prodotto arrivato oggi.", "Lo consiglio.", "Nel complesso soddisfatto.", "Non lo ricomprerei."]


def memes(rng: random.Random, count: int, first_id: int) -> Tuple[list, list, list]:
    """(ST1, ST2, ST3) gold records; ST1 labels are exactly the ST2 techniques of the meme."""
    st1, st2, st3 = [], [], []
    for n in range(count):
        identifier = "%d%s" % (first_id + n, "_batch_2" if n % 5 == 4 else "")
        pieces = rng.sample(MEME_PIECES, rng.choice([1, 1, 2, 2, 3, 4]))
        if n % 7 == 3:
            pieces = [p for p in pieces if p[1] is None] or [("Good morning", None)]
        text, labels = "", []
        for fragment, technique in pieces:
            start = len(text)
            text += fragment + "\n"
            if technique:
                labels.append({"start": start, "end": start + len(fragment), "technique": technique,
                               "text_fragment": fragment})
        if labels and n % 4 == 1:  # a span of another technique overlapping the first one
            first = labels[0]
            other = rng.choice([t for t in ("Loaded Language", "Exaggeration/Minimisation")
                                if t != first["technique"]])
            space = text.find(" ", first["start"] + 3, first["end"])  # the first word or two
            end = first["end"] if space < 0 else space
            labels.append({"start": first["start"], "end": end, "technique": other,
                           "text_fragment": text[first["start"]:end]})
        text = text.rstrip("\n")
        techniques = sorted({label["technique"] for label in labels}, key=SEMEVAL2021_T6_ST1_ST2.index)
        st2.append({"id": identifier, "text": text, "labels": labels})
        st1.append({"id": identifier, "labels": techniques, "text": text})
        extra = [t for t in ("Transfer", "Appeal to (Strong) Emotions") if rng.random() < 0.3]
        st3.append({"id": identifier, "labels": techniques + extra, "text": text,
                    "image": "%s.png" % identifier.replace("_batch_2", "_image_batch_2")})
    return st1, st2, st3


def articles(rng: random.Random, count: int, first_id: int) -> Dict[str, Tuple[str, List[tuple]]]:
    """article id -> (text, [(technique, start, end)])."""
    result = {}
    for n in range(count):
        identifier = str(first_id + 37 * n)
        sentences = rng.sample(ARTICLE_SENTENCES, rng.randint(4, 9))
        if n % 6 == 2:
            sentences = [s for s in sentences if s[1] is None] or [ARTICLE_SENTENCES[0]]
        text, spans = "Local news\n\n", []
        for sentence, technique in sentences:
            start = len(text)
            text += sentence + " "
            if technique:
                spans.append((technique, start, start + len(sentence)))
                if technique != "Loaded_Language" and rng.random() < 0.3:  # cross-technique overlap
                    word_end = start + sentence.index(" ", 6)
                    spans.append(("Loaded_Language", start, word_end))
        result[identifier] = (text.rstrip() + "\n", spans)
    return result


def nlu_rows(rng: random.Random, count: int, first_id: int) -> Tuple[list, list]:
    """(test input rows id,q,r,s for scored and unscored ids, gold rows id,q',r' per answer)."""
    inputs, gold = [], []
    for n in range(count):
        identifier = str(first_id + 3 * n)
        _, q, r = NLU_TOPICS[n % len(NLU_TOPICS)]
        stance = "AGREE" if n % 4 == 0 else "DISAGREE"
        inputs.append((identifier, q, r, stance))
        q_words, r_words = q.split(), r.split()
        for _ in range(rng.randint(1, 4)):  # accepted answers, sometimes repeated
            qa = rng.randint(0, len(q_words) // 2)
            ra = rng.randint(0, len(r_words) // 2)
            gold.append((identifier, " ".join(q_words[qa:qa + rng.randint(3, len(q_words) - qa)]),
                         " ".join(r_words[ra:ra + rng.randint(3, len(r_words) - ra)])))
    for n in range(count // 3):  # unscored items mixed into the released test input
        topic = NLU_TOPICS[(n + 2) % len(NLU_TOPICS)]
        inputs.append((str(first_id + 3 * count + 2 * n + 1), topic[1], topic[2], "DISAGREE"))
    rng.shuffle(inputs)
    return inputs, gold


def reviews(rng: random.Random, count: int) -> List[dict]:
    result = []
    for n in range(count):
        parts = [] if n % 8 == 5 else rng.sample(REVIEW_PARTS, rng.randint(1, 3))
        sentence, aspects, positions, polarities = rng.choice(REVIEW_FILLERS), [], [], []
        seen = set()
        for term, comment, polarity in parts:
            if term in seen:
                continue
            seen.add(term)
            sentence += " " + (term[0].upper() + term[1:]) + " " + comment + "."
            article_end = term.index(" ") + 1 if term.startswith(("la ", "lo ", "il ")) else 0
            aspect = term[article_end:]
            start = sentence.index((term[0].upper() + term[1:])) + article_end
            aspects.append(aspect)
            positions.append([start, start + len(aspect)])
            polarities.append(polarity)
        positive = sum(p[0] for p in polarities) - sum(p[1] for p in polarities)
        score = max(1, min(5, 4 + positive + (1 if n % 3 == 0 else 0) - (2 if not parts and n % 2 else 0)))
        result.append({"sentence": sentence, "id_sentence": "%08x-sample-%04d" % (rng.getrandbits(32), n),
                       "score": score, "aspects": aspects, "aspects_position": positions,
                       "polarities": polarities})
    return result


def write_phase(folder: str, rng: random.Random, first_id: int) -> None:
    os.makedirs(folder, exist_ok=True)
    st1, st2, st3 = memes(rng, 36, first_id)
    for name, records in (("semeval2021_t6_st1.json", st1), ("semeval2021_t6_st2.json", st2),
                          ("semeval2021_t6_st3.json", st3)):
        _write(os.path.join(folder, name), json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    flc_folder = os.path.join(folder, "nlp4if2019_flc")
    os.makedirs(flc_folder, exist_ok=True)
    for identifier, (text, spans) in articles(rng, 24, 700000000 + first_id * 1000).items():
        _write(os.path.join(flc_folder, "article%s.txt" % identifier), text)
        _write(os.path.join(flc_folder, "article%s.task-FLC.labels" % identifier),
               "".join("%s\t%s\t%d\t%d\n" % (identifier, t, s, e) for t, s, e in spans))
    inputs, gold = nlu_rows(rng, 30, first_id * 10)
    _write(os.path.join(folder, "aicup2022_nlu_test.csv"),
           _csv([("id", "q", "r", "s")] + [(i, '"%s"' % q, '"%s"' % r, s) for i, q, r, s in inputs]))
    _write(os.path.join(folder, "aicup2022_nlu.csv"), _csv([(i, '"%s"' % q, '"%s"' % r) for i, q, r in gold]))
    _write(os.path.join(folder, "evalita2020_absita.ndjson"),
           "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in reviews(rng, 40)))


def _csv(rows) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=os.path.join(ROOT, "reference_data"))
    args = parser.parse_args()
    write_phase(os.path.join(args.out, "dev"), random.Random(args.seed), 100)
    write_phase(os.path.join(args.out, "test"), random.Random(args.seed + 1), 500)


if __name__ == "__main__":
    main()
