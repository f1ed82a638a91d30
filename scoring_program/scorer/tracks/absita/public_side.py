"""absita's public side (the bundle build, the starting kit): the reviews' texts without the
answers, the stand-in gold of ``check_format.py`` and the organiser's frequent-aspects baseline."""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Sequence

from .reviews import ID_FIELD

def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    from ...machinery.public_input import read_ndjson, write_ndjson
    gold = os.path.join(gold_dir, filename)
    if not os.path.isfile(gold):
        return []
    write_ndjson(os.path.join(public_dir, filename),
                 [{ID_FIELD: record[ID_FIELD], "sentence": record.get("sentence", "")} for record in read_ndjson(gold)])
    return [filename]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    from ...machinery.public_input import read_ndjson
    path = os.path.join(public_dir, filename)
    return [record[ID_FIELD] for record in read_ndjson(path)] if os.path.isfile(path) else None


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    """Every review with no aspects, no polarities and the score 3."""
    from ...machinery.public_input import read_ndjson, write_ndjson
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    write_ndjson(os.path.join(gold_dir, filename),
                 [{ID_FIELD: record[ID_FIELD], "aspects": [], "polarities": [], "score": 3} for record in read_ndjson(path)])
    return [filename]


# Frequent aspect terms of the ATE_ABSITA training data (lower-cased), most frequent first.
FREQUENT_ASPECTS = ("prezzo", "qualità", "batteria", "spedizione", "prodotto", "qualità prezzo",
                    "schermo", "design", "suono", "custodia", "materiale", "funzionamento")
MEAN_TRAINING_SCORE = 4.463  # the mean review score of the training set (the organiser's baseline)


def frequent_aspects(reviews: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The baseline: every frequent aspect term found in the review, positive; the mean score."""
    predictions = []
    for review in reviews:
        sentence = review.get("sentence", "").lower()
        aspects = [term for term in FREQUENT_ASPECTS if re.search(r"\b%s\b" % re.escape(term), sentence)]
        predictions.append({ID_FIELD: review[ID_FIELD], "aspects": aspects,
                            "polarities": [[1, 0] for _ in aspects], "score": MEAN_TRAINING_SCORE})
    return predictions


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    from ...machinery.public_input import read_ndjson, write_ndjson
    path = os.path.join(public_dir, filename)
    if not os.path.isfile(path):
        return []
    write_ndjson(os.path.join(out_dir, filename), frequent_aspects(read_ndjson(path)))
    return [filename]

