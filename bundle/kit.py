"""The starting kit: the participants' tools, the scoring program, the first phase's public data and
sample submission, and its README, the template ``starting_kit/README.md`` filled from the track modules.

Nothing about a track is written by hand outside its module and card, so the README can never drift
from the scoring program: ``fill_template`` puts in the file names (``FILE_NAME``, ``GOLD_NAMES``,
``RELEASED_GOLD``), each track's "Submission format" section of its metric card and the address of
a submission's detailed results page (``scorer/outputs/verdict.py``);
``generated_sections`` appends the exact technique names of every technique track and the scores the
sample submission (the baselines) gets on the first phase's gold, computed by the scoring program.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import Dict, Sequence

from scorer.outputs.verdict import DETAILED_RESULTS

from .paths import KIT, PROGRAM

KIT_FILES = ("README.md", "README.ipynb", "baselines.py", "score_locally.py", "staging.py", "check_format.py")


def starting_kit(tracks: Sequence, program: Dict[str, bytes], gold_dir: str, folder: str, label: str,
                 public: Dict[str, bytes], sample: bytes) -> Dict[str, bytes]:
    """The first phase's starting kit (name -> bytes): ``starting_kit/``'s tools and README, the README
    completed with the sample submission's scores on the phase's gold (``gold_dir``), the scoring
    program ``program``, the phase's ``public`` data under ``public_data/<folder>/`` and its
    ``sample`` submission."""
    kit = {}
    for name in KIT_FILES:
        with open(os.path.join(KIT, name), "rb") as handle:
            kit[name] = handle.read()
    expected = sample_scores(PROGRAM, gold_dir, sample)
    kit["README.md"] = (fill_template(kit["README.md"].decode("utf-8"), tracks)
                        + generated_sections(tracks, expected, label)).encode("utf-8")
    kit.update({"scoring_program/" + name: data for name, data in program.items()})
    kit.update({"public_data/%s/%s" % (folder, name): data for name, data in public.items()})
    kit["sample_submission.zip"] = sample
    return kit


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


def card_section(track, heading: str = "Submission format") -> str:
    """The body of section ``## heading`` of a track's metric card (``track.card_path``),
    without its first line when that line says where the section is copied."""
    with open(track.card_path, encoding="utf-8") as handle:
        card = handle.read()
    match = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(heading), card, re.M | re.S)
    if match is None:
        raise ValueError("the metric card of track %s has no section '## %s'" % (track.name, heading))
    lines = match.group(1).strip("\n").split("\n")
    if lines and (lines[0].startswith("What participants read") or lines[0].startswith("What `baselines.py` writes")):
        lines = lines[1:]
    return "\n".join(lines).strip("\n")


def fill_template(template: str, tracks: Sequence) -> str:
    """``template`` with every ``@NAME@`` replaced from the tracks; an unknown name is an error."""
    def code(names) -> str:
        return ", ".join("`%s`" % name for name in names)

    released = list(dict.fromkeys(name for track in tracks
                                  for name in track.released_gold.values()))
    values = {
        "DETAILED_RESULTS": DETAILED_RESULTS,
        "SUBMISSION_FILES": " ".join(track.filename for track in tracks),
        "FIRST_FILE": tracks[0].filename,
        "FIRST_KEY": tracks[0].keys[0],
        "LOWER_IS_BETTER_KEYS": code(key for track in tracks for key in track.keys if key in track.lower_is_better),
        "RELEASED_GOLD": code(released),
        "GOLD_NAMES": ", ".join("%s (`%s`)" % (" or ".join("`%s`" % name for name in track.gold_names), track.name)
                                for track in tracks),
        "BASELINES": "\n".join("- `%s`: %s" % (track.filename, " ".join(card_section(track, "Baseline").split("\n")))
                                for track in tracks),
        "SUBMISSION_FORMATS": "\n\n".join("### `%s` — %s\n%s" % (track.filename, track.title, card_section(track))
                                            for track in tracks),
    }

    def value(match) -> str:
        if match.group(1) not in values:
            raise ValueError("starting_kit/README.md: unknown template name @%s@ (known: %s)"
                             % (match.group(1), ", ".join(sorted(values))))
        return values[match.group(1)]
    if template.startswith("<!--"):  # the note that this is a template
        template = template[template.index("-->") + 3:].lstrip("\n")
    return re.sub(r"@([A-Z_]+)@", value, template)


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
        if track.techniques:
            lists.setdefault(track.techniques, []).append(track)
    for techniques, users in lists.items():
        lines += ["", "## The %d technique names of %s" % (len(techniques), " and ".join(
            "`%s` (`%s`)" % (track.name, track.filename) for track in users)),
                  "", "Exactly these strings (case, spaces and punctuation included):", ""]
        lines += ["- `%s`" % technique for technique in techniques]
    return "\n".join(lines) + "\n"
