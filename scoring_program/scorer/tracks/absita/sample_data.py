"""absita's sample gold (``tools/make_sample_data.py``) and benchmark input (``benchmarks/run.py``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, List

from .names import FILE_NAME, NAME
from .reviews import ID_FIELD

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

# (term, comment, polarity) pieces from which sample reviews are assembled.
SAMPLE_PARTS = (
    ("la batteria", "dura tantissimo", [1, 0]), ("la batteria", "si scarica in fretta", [0, 1]),
    ("lo schermo", "\u00e8 luminoso e nitido", [1, 0]), ("lo schermo", "si graffia facilmente", [0, 1]),
    ("la spedizione", "\u00e8 stata velocissima", [1, 0]), ("la spedizione", "\u00e8 arrivata in ritardo", [0, 1]),
    ("il prezzo", "\u00e8 onesto", [1, 0]), ("il prezzo", "\u00e8 un po' alto", [0, 1]),
    ("la qualit\u00e0 costruttiva", "\u00e8 discreta", [0, 0]),
    ("il manuale di istruzioni", "\u00e8 chiaro ma corto", [1, 1]),
    ("il caricabatterie", "funziona bene", [1, 0]), ("la custodia", "\u00e8 fragile", [0, 1]),
    ("mantenere la temperatura", "riesce per ore", [1, 0]), ("il suono", "\u00e8 potente", [1, 0]),
)
SAMPLE_FILLERS = ("Prodotto arrivato oggi.", "Lo consiglio.", "Nel complesso soddisfatto.", "Non lo ricomprerei.")
SAMPLE_REVIEWS = 40  # per split


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: reviews with one to three aspects, and reviews without."""
    from ...machinery.public_input import write_ndjson
    from ...machinery.sample_text import first_id, sample_rng
    rng = sample_rng(seed, NAME, split)
    base = first_id(split)
    reviews = []
    for n in range(SAMPLE_REVIEWS):
        parts = [] if n % 8 == 5 else rng.sample(SAMPLE_PARTS, rng.randint(1, 3))
        sentence, aspects, positions, polarities = rng.choice(SAMPLE_FILLERS), [], [], []
        seen = set()
        for term, comment, polarity in parts:
            if term in seen:
                continue
            seen.add(term)
            capitalised = term[0].upper() + term[1:]
            sentence += " " + capitalised + " " + comment + "."
            article_end = term.index(" ") + 1 if term.startswith(("la ", "lo ", "il ")) else 0
            aspect = term[article_end:]
            start = sentence.index(capitalised) + article_end
            aspects.append(aspect)
            positions.append([start, start + len(aspect)])
            polarities.append(polarity)
        positive = sum(p[0] for p in polarities) - sum(p[1] for p in polarities)
        score = max(1, min(5, 4 + positive + (1 if n % 3 == 0 else 0) - (2 if not parts and n % 2 else 0)))
        reviews.append({"sentence": sentence, ID_FIELD: "%08x-sample-%04d" % (rng.getrandbits(32), base + n),
                        "score": score, "aspects": aspects, "aspects_position": positions,
                        "polarities": polarities})
    write_ndjson(os.path.join(folder, FILE_NAME), reviews)
    return [FILE_NAME]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold in ``ref/`` and a submission in ``res/``; ×1 = the ATE_ABSITA dev set: 109 reviews,
    ~2.2 aspects each."""
    import json
    aspects = ["batteria", "prezzo", "qualità", "spedizione", "schermo", "suono", "durata della batteria",
               "rapporto qualità prezzo", "custodia", "materiale", "design", "peso", "manuale"]
    polarities = [[1, 0], [1, 0], [1, 0], [0, 1], [0, 0], [1, 1]]
    gold, predicted = [], []
    for i in range(109 * scale):
        terms = rng.sample(aspects, rng.choice([0, 1, 2, 2, 3, 4]))
        pols = [rng.choice(polarities) for _ in terms]
        gold.append({ID_FIELD: "r%06d" % i, "sentence": "…", "aspects": terms, "polarities": pols,
                     "score": rng.choice([1, 3, 4, 5, 5, 5])})
        guess = [t.split()[-1] if rng.random() < 0.2 else t for t in terms if rng.random() < 0.8]
        predicted.append({ID_FIELD: "r%06d" % i, "aspects": guess,
                          "polarities": [rng.choice(polarities) for _ in guess], "score": rng.uniform(1, 5)})
    for side, rows in (("ref", gold), ("res", predicted)):
        with open(os.path.join(input_dir, side, FILE_NAME), "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
