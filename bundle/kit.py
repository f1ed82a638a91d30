"""The starting kit's README: the hand-written ``starting_kit/README.md`` and what the build knows.

Appended at build time, so that they can never drift from the scoring program and the phase's
data: the exact technique names of every technique track (asked of the track modules) and the
scores the sample submission (the baselines) gets on the first phase's gold, computed by the
scoring program itself.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import Dict, Sequence


def sample_scores(program_dir: str, gold_dir: str, sample_zip: bytes) -> Dict[str, float]:
    """The scores of ``sample_zip`` on ``gold_dir``, as ``score.py`` writes them."""
    with tempfile.TemporaryDirectory() as work:
        zipfile.ZipFile(io.BytesIO(sample_zip)).extractall(os.path.join(work, "input", "res"))
        shutil.copytree(gold_dir, os.path.join(work, "input", "ref"))
        process = subprocess.run([sys.executable, os.path.join(program_dir, "score.py"),
                                  os.path.join(work, "input"), os.path.join(work, "output")],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if process.returncode != 0:
            raise RuntimeError("the sample submission was not scored: %s" % process.stderr.strip()[:500])
        with open(os.path.join(work, "output", "scores.json"), encoding="utf-8") as handle:
            return json.load(handle)


def generated_sections(tracks: Sequence, scores: Dict[str, float], phase_label: str) -> str:
    lines = ["", "<!-- The sections below are written by build_bundle.py from the scoring program "
             "and the phase's data. -->", "",
             "## Expected baseline scores (%s phase)" % phase_label, "",
             "`sample_submission.zip` (the baselines run on `public_data/`) scores, with the platform's "
             "scoring program on this phase's gold (`python3 score_locally.py sample_submission.zip --ref "
             "GOLD` gives the same with the gold at hand):", "",
             "| track | score | value |", "|---|---|---|"]
    for track in tracks:
        for key in track.keys:
            if key in scores:
                lines.append("| `%s` | `%s` | %.6f |" % (track.name, key, scores[key]))
    lists: Dict[tuple, list] = {}  # technique list -> the tracks that use it, in registry order
    for track in tracks:
        techniques = tuple(getattr(track.implementation(), "TECHNIQUES", ()) or ())
        if techniques:
            lists.setdefault(techniques, []).append(track)
    for techniques, users in lists.items():
        lines += ["", "## The %d technique names of %s" % (len(techniques), " and ".join(
            "`%s` (`%s`)" % (track.name, track.filename) for track in users)),
                  "", "Exactly these strings (case, spaces and punctuation included):", ""]
        lines += ["- `%s`" % technique for technique in techniques]
    return "\n".join(lines) + "\n"
