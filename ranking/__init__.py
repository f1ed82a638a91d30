"""The organisers' results tool behind ``rank_submissions.py`` (numpy, pandas, matplotlib).

- ``downloads``: what an organiser downloaded -> ``entries`` (one per submission), with each
  platform's layout in its own module (``codabench_download``, ``codabench_export``,
  ``codalab_download``, ``client_download``); teams (``team_sheets``) and the participants'
  descriptions (``descriptions``); ``unpacking``: one submission unpacked as ``res/``, and the
  files the scorer reads from it; ``kit_baselines``: the starting kit's baselines as rows;
  ``migrated``: each ranked row's copy in the next phase's download;
- ``scoring``: each submission scored by the scoring program's own code -> scores and per-item
  statistics (each track module defines its own, with its aggregate and leaderboards;
  ``scoring_program/scorer/outputs/resampling.py`` dispatches to them and defines the resamples);
  ``settings``: the phase's own settings; ``selection``: which submission of each team is ranked;
- ``statistics``: CIs, ranks, rank ranges, p-values and groups on arrays of resamples;
- the outputs, into ``out_folder``: ``tables`` (what they share, and the CSV files),
  ``results_md``, ``results_tex``, ``index_html``, ``figures``; ``labels`` (competition.yaml's
  words), ``names`` (every participant's text shown safely), ``copies`` (files alike across teams).

The scoring program never imports this package; it imports the scoring program and the starting
kit's safe unzipping and baselines (their folders it puts on ``sys.path`` here), and the build's
derivation of the public inputs (``bundle/``, beside it).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM_DIR = os.path.join(ROOT, "scoring_program")
for _folder in (os.path.join(ROOT, "starting_kit"), PROGRAM_DIR):
    if _folder not in sys.path:
        sys.path.insert(0, _folder)
