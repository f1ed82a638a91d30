"""The release's README: what it holds, and how to score on the test set in two commands."""

from __future__ import annotations

from typing import Any, Dict, List

from bundle.wheel import COMMAND, PACKAGE
from scorer import __version__

from .checksums import SUMS
from .phases import Phase


def readme(config: Dict[str, Any], phases: List[Phase], gold: List[Phase], tracks, wheel: str,
           settings: Dict[str, str], has_results: bool, prediction_rows: int = 0) -> str:
    test = phases[-1]
    track_rows = "\n".join("| `%s` | %s | `%s` | `cards/%s.md` |" % (t.name, t.title, t.filename, t.name)
                           for t in tracks)
    given = "gold/%s" % test.folder if test in gold else "TEST_GOLD"
    settings_part = " --settings settings/%s.json" % test.folder if test.folder in settings else ""
    where_gold = ("`gold/%s/` holds it (the track's gold under its competition name)" % test.folder
                  if test in gold else
                  "this release does not hold it (the organisers' licence decision): give its file, its "
                  "folder as the task released it, or a folder holding it, in place of `TEST_GOLD`")
    lines = [
        "# %s: the task's release" % config["title"],
        "",
        " ".join(str(config.get("description", "")).split()),
        "",
        "Version %s of the scorer; every score below carries its signature (`<track>|<settings>|v%s`)."
        % (__version__, __version__),
        "",
        "## Score on the test set (%s) in two commands" % test.named,
        "",
        "In this folder, with Python 3.7 or later (a virtual environment is best):",
        "",
        "    pip install scorer/%s" % wheel,
        "    %s TRACK %s PREDICTION%s" % (COMMAND, given, settings_part),
        "",
        "TRACK is one of the tracks below; PREDICTION is one file in the track's submission format "
        "(its card). The test gold: %s. The command prints the leaderboard scores as the platform "
        "stored them and their signature; `--json` prints one JSON object, `%s --card TRACK` the "
        "track's card. In Python: `from %s import score; score(TRACK, GOLD, PREDICTION)`. "
        "Standard library only, Python 3.7 or later, no network." % (where_gold, COMMAND, PACKAGE),
        "",
        "| track | task | submission file | card |",
        "|---|---|---|---|",
        track_rows,
        "",
        "## Contents",
        "",
        "| path | what |",
        "|---|---|",
        "| `scorer/%s` | the installable scorer: the competition's scoring program, the same code |" % wheel,
        "| `cards/` | each track's metric card: definition, format, refusals and warnings, fidelity, citation |",
        "| `settings/` | each phase's scoring settings (`--settings`; the signature names them) |",
        "| `public_data/<folder>/` | each phase's public inputs: %s |"
        % "; ".join("`%s`: %s" % (p.folder, p.named) for p in phases),
    ]
    if gold:
        lines.append("| `gold/<folder>/` | the gold of %s |" % "; ".join("`%s`: %s" % (p.folder, p.named) for p in gold))
    else:
        lines.append("| (no gold) | the organisers released no gold here |")
    if has_results:
        lines.append("| `results/` | the final tables (`rank_submissions.py`): one row per team, CIs, rank ranges, "
                     "significance groups; `results/index.html`, `results.md`, `results.tex`, CSV files |")
    if prediction_rows:
        lines.append("| `predictions/` | the prediction files of the %d ranked rows of `results/`, one folder each "
                     "(`predictions/<n>/<the track's file>`); `predictions/manifest.json` ties each folder to its row "
                     "(team, owner, the Evaluation submission, its migrated copy on the public board): `%s TRACK %s "
                     "predictions/<n>/<file>%s` gives the row's numbers |"
                     % (prediction_rows, COMMAND, given, settings_part))
    lines += ["| `CITATION.cff`, `.zenodo.json` | how to cite this release; Zenodo's metadata |",
              "| `%s` | the sha256 of every file: `sha256sum -c %s` |" % (SUMS, SUMS), ""]
    return "\n".join(lines)
