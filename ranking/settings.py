"""The phase's own scoring settings for a re-scoring, as the platform applied them.

The built reference data of a phase holds ``scoring_config.json`` (``phase_settings/<phase
folder>.json`` of the repository, written in by the build), and the scoring program reads it over
its own ``scoring_program/scoring_config.json``. Re-scoring from the repository's gold folder
(``--ref reference_data/test``), which holds no such file, must apply the same file: otherwise a
submission the platform scored with ``overlapping_predictions: merge`` would be refused here.

``phase_reference(ref, settings)``: the reference folder to score against, and which settings file
it applies: ``--settings FILE`` when given (over the phase's file), else ``ref/scoring_config.json``
when present, else ``phase_settings/<name of ref>.json`` when that exists, else none. When a file
must be added, the folder is a temporary copy of ``ref`` with the file in it, so that the scoring
program reads the phase's settings exactly as on the platform. Every file is checked by the scoring
program's own reader before any scoring.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from typing import List, Optional, Tuple

from scorer.readers.options import CONFIG_NAME, Options, apply_settings
from scorer.readers.problems import ReferenceDataError

from . import PROGRAM_DIR, ROOT
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


def check_settings(files: List[Tuple[str, dict]]) -> None:
    """The settings files' values (in the order they apply, over the scoring program's own) checked
    by the scoring program's own reader before any scoring: a bad key or value is one line naming
    the organiser's file (never the temporary copy the scorer reads)."""
    try:
        options = apply_settings(Options(), _read_settings(os.path.join(PROGRAM_DIR, CONFIG_NAME)), CONFIG_NAME) \
            if os.path.isfile(os.path.join(PROGRAM_DIR, CONFIG_NAME)) else Options()
        for path, values in files:
            options = apply_settings(options, values, "settings %s" % shown(path))
    except ReferenceDataError as error:
        raise SystemExit("rank_submissions: %s" % error) from None


def phase_reference(reference_dir: str, settings_file: Optional[str], work: str) -> Tuple[str, List[str]]:
    """(the folder to score against, the settings files applied over the program's own, in
    order, as shown). ``work``: a folder that lives as long as the scoring."""
    own = os.path.join(reference_dir, CONFIG_NAME)
    phase_file = os.path.join(PHASE_SETTINGS_DIR, os.path.basename(os.path.normpath(reference_dir)) + ".json")
    has_own = os.path.isfile(own)
    files: List[Tuple[str, dict]] = []  # (as shown, its values), in the order they apply
    if has_own:
        files.append((own, _read_settings(own)))
    elif os.path.isfile(phase_file):
        files.append((os.path.relpath(phase_file, ROOT), _read_settings(phase_file)))
    if settings_file:
        files.append((settings_file, _read_settings(settings_file)))
    check_settings(files)
    blind = [path for path, file_values in files if file_values.get("blind") is True]
    if blind:  # a blind phase's reference data is a stand-in without answers (scorer/outputs/blind.py)
        raise SystemExit("rank_submissions: settings %s make the phase blind: its scores are never computed, and "
                         "its built reference data holds no gold; re-score a blind phase's download on its gold "
                         "(--ref reference_data/test: the Post-Evaluation phase's settings apply)" % shown(blind[0]))
    applied = [path for path, _ in files]
    values: dict = {}
    if not (has_own and not settings_file):  # (the phase's own settings alone are already beside its gold)
        for _, file_values in files:
            values.update(file_values)
    if not values:
        return reference_dir, applied
    # a copy of the gold beside the settings (a symbolic link needs a privilege on Windows)
    view = tempfile.mkdtemp(prefix="phase-reference-", dir=work)
    for name in sorted(os.listdir(reference_dir)):
        if name != CONFIG_NAME:
            source = os.path.join(os.path.abspath(reference_dir), name)
            try:
                if os.path.isdir(source):
                    shutil.copytree(source, os.path.join(view, name))
                else:
                    shutil.copyfile(source, os.path.join(view, name))
            except (OSError, shutil.Error) as error:
                raise SystemExit("rank_submissions: --ref %s: %s cannot be read (%s)"
                                 % (shown(reference_dir), shown(name), error)) from None
    with open(os.path.join(view, CONFIG_NAME), "w", encoding="utf-8") as handle:
        json.dump(values, handle, sort_keys=True)
    return view, applied
