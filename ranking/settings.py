"""The phase's own scoring settings for a re-scoring, as the platform applied them.

The built reference data of a phase holds ``scoring_config.json`` (``phase_settings/<phase
folder>.json`` of the repository, written in by the build), and the scoring program reads it over
its own ``scoring_program/scoring_config.json``. Re-scoring from the repository's gold folder
(``--ref reference_data/test``), which holds no such file, must apply the same file: otherwise a
submission the platform scored with ``overlapping_predictions: merge`` would be refused here.

``phase_reference(ref, settings)``: the reference folder to score against, and which settings file
it applies: ``--settings FILE`` when given (over the phase's file), else ``ref/scoring_config.json``
when present, else ``phase_settings/<name of ref>.json`` when that exists, else none. When a file
must be added, the folder is a temporary view of ``ref`` (a link to each of its entries) with the
file in it, so that the scoring program reads the phase's settings exactly as on the platform.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import List, Optional, Tuple

from scorer.options import CONFIG_NAME

from . import ROOT
from .names import shown

PHASE_SETTINGS_DIR = os.path.join(ROOT, "phase_settings")


def _read_settings(path: str) -> dict:
    try:
        with open(path, encoding="utf-8-sig") as handle:
            values = json.load(handle)
    except (OSError, ValueError) as error:
        raise SystemExit("rank_submissions: settings %s cannot be read (%s)"
                         % (shown(path), getattr(error, "strerror", None) or error)) from None
    if not isinstance(values, dict):
        raise SystemExit("rank_submissions: settings %s: expected a JSON object of settings" % shown(path))
    return values


def phase_reference(reference_dir: str, settings_file: Optional[str], work: str) -> Tuple[str, List[str]]:
    """(the folder to score against, the settings files applied over the program's own, in
    order, as shown). ``work``: a folder that lives as long as the scoring."""
    own = os.path.join(reference_dir, CONFIG_NAME)
    phase_file = os.path.join(PHASE_SETTINGS_DIR, os.path.basename(os.path.normpath(reference_dir)) + ".json")
    applied: List[str] = []
    values: dict = {}
    if os.path.isfile(own):
        applied.append(own)
    elif os.path.isfile(phase_file):
        values.update(_read_settings(phase_file))
        applied.append(os.path.relpath(phase_file, ROOT))
    if settings_file:
        if os.path.isfile(own):
            values.update(_read_settings(own))
        values.update(_read_settings(settings_file))
        applied.append(settings_file)
    if not values:
        return reference_dir, applied
    view = tempfile.mkdtemp(prefix="phase-reference-", dir=work)
    for name in sorted(os.listdir(reference_dir)):
        if name != CONFIG_NAME:
            os.symlink(os.path.join(os.path.abspath(reference_dir), name), os.path.join(view, name))
    with open(os.path.join(view, CONFIG_NAME), "w", encoding="utf-8") as handle:
        json.dump(values, handle, sort_keys=True)
    return view, applied
