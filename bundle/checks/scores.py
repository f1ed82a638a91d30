"""The scores of a run as each platform reads them.

Codalab v1.5 reads ``output/scores.txt`` line by line (one colon per line, ``float()``) and keeps
the leaderboard's keys; Codabench prefers ``scores.json`` and reads ``scores.txt`` as YAML, and
stores a score with 10 digits. Every reading must give the same numbers.
"""

from __future__ import annotations

import json
import math
import os
from typing import Dict, List, Optional, Sequence

import yaml


def parse_v15(text: str, keys: Sequence[str]) -> Dict[str, float]:
    """The leaderboard ``keys`` of ``scores.txt`` as the v1.5 worker reads them."""
    scores: Dict[str, float] = {}
    for line in text.split("\n"):
        if not line:
            continue
        parts = line.split(":")
        if len(parts) != 2:
            raise ValueError("line %r does not split into key: value" % line)
        key = parts[0].strip()
        if key in keys:
            if key in scores:
                raise ValueError("duplicate key %s" % key)
            scores[key] = float(parts[1])
    return scores


def parse_codabench(text: str) -> Dict[str, float]:
    """``scores.txt`` as Codabench's YAML reading gives it."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not all(isinstance(v, (int, float)) for v in data.values()):
        raise ValueError("scores.txt is not a YAML mapping of numbers")
    return {str(k): float(v) for k, v in data.items()}


def read_scores(output: str, keys: Sequence[str], problems: List[str]) -> Optional[Dict[str, float]]:
    """The leaderboard scores of the run whose ``output/`` folder is ``output``, or None; what keeps
    the platforms' readings from agreeing goes to ``problems``."""
    scores_path = os.path.join(output, "scores.txt")
    if not os.path.isfile(scores_path):
        problems.append("no output/scores.txt")
        return None
    with open(scores_path, encoding="ascii") as handle:
        text = handle.read()
    try:
        v15_scores = parse_v15(text, keys)
        codabench_scores = parse_codabench(text)
        with open(os.path.join(output, "scores.json"), encoding="utf-8") as handle:
            json_scores = json.load(handle)
    except (ValueError, OSError, yaml.YAMLError) as error:
        problems.append("scores unreadable: %s" % error)
        return None
    # Beside the scores, the signature of each scored track (which Codabench does not store: it
    # keeps only the keys that are leaderboard columns).
    signatures = json_scores.pop("signature", None)
    if not isinstance(signatures, dict) or not all(isinstance(value, str) for value in signatures.values()):
        problems.append("scores.json: \"signature\" must be an object of strings (track -> signature)")
    if set(codabench_scores) != set(keys) or set(json_scores) != set(keys):
        problems.append("scores.txt and scores.json must hold exactly the leaderboard keys; extra: %s, missing: %s"
                        % (sorted(set(codabench_scores) - set(keys)), sorted(set(keys) - set(codabench_scores))))
    for key, value in v15_scores.items():
        if not math.isfinite(value) or abs(value) >= 1e10:
            problems.append("%s = %r is not a finite number below 1e10 (Codabench stores 10 digits)" % (key, value))
        if codabench_scores.get(key) != value or json_scores.get(key) != value:
            problems.append("%s differs between the v1.5, YAML and JSON readings" % key)
    return v15_scores
