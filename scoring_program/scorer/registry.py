"""The tracks: which file each one reads, which module scores it, which keys it writes."""

from __future__ import annotations

import importlib
import os
from .structs import struct
from typing import Callable, Optional, Tuple

from .options import Options
from .result import TrackResult


@struct(frozen=True)
class Track:
    name: str
    filename: str  # the submission file in res/ (and, except for flc folders, the gold in ref/)
    module: str  # scorer.tracks.<module>
    keys: Tuple[str, ...]  # every leaderboard key the track can write, primary first
    title: str
    gold_names: Tuple[str, ...] = ()  # what to look for in ref/ (default: ``filename``)

    @property
    def primary(self) -> str:
        return self.keys[0]

    def find_gold(self, reference_dir: str) -> Optional[str]:
        for name in self.gold_names or (self.filename,):
            path = os.path.join(reference_dir, name)
            if os.path.exists(path):
                return path
        return None

    def scorer(self) -> Callable[[str, str, str, Options, str], TrackResult]:
        return self.implementation().score

    def implementation(self):
        """The track's module (imported on first use: the nlu track's nltk only when it is scored)."""
        return importlib.import_module("scorer.tracks." + self.module)


TRACKS = (
    Track("t6_st1", "semeval2021_t6_st1.json", "t6_st1",
          ("t6_st1_f1_micro", "t6_st1_f1_macro"),
          "SemEval-2021 Task 6 ST1 (meme text, multilabel)"),
    Track("t6_st2", "semeval2021_t6_st2.json", "t6_st2",
          ("t6_st2_f1", "t6_st2_precision", "t6_st2_recall"),
          "SemEval-2021 Task 6 ST2 (meme text spans)"),
    Track("t6_st3", "semeval2021_t6_st3.json", "t6_st3",
          ("t6_st3_f1_micro", "t6_st3_f1_macro"),
          "SemEval-2021 Task 6 ST3 (whole meme, multilabel)"),
    Track("flc", "nlp4if2019_flc.tsv", "flc",
          ("flc_f1", "flc_precision", "flc_recall"),
          "NLP4IF-2019 FLC (news spans)", ("nlp4if2019_flc", "nlp4if2019_flc.tsv")),
    Track("nlu", "aicup2022_nlu.csv", "nlu",
          ("nlu_score", "nlu_q", "nlu_r"),
          "AI CUP 2022 explainable NLU (q'/r' spans)"),
    Track("absita", "evalita2020_absita.ndjson", "absita",
          ("ate_f1", "ate_precision", "ate_recall", "absa_f1", "absa_precision", "absa_recall",
           "sa_rmse"),
          "EVALITA 2020 ATE_ABSITA (aspects, polarity, score)"),
)

BY_NAME = {track.name: track for track in TRACKS}
BY_FILE = {track.filename: track for track in TRACKS}
ALL_KEYS = tuple(key for track in TRACKS for key in track.keys)
LOWER_IS_BETTER = frozenset({"sa_rmse"})
