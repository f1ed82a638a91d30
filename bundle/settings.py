"""Each phase's scoring settings: ``phase_settings/<name>.json`` (``<name>``: of the phase's
``<name>_reference_data.zip``), checked by the scoring program and written into that phase's
reference data as ``scoring_config.json``."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Dict, List, Tuple

from scorer.readers.options import CONFIG_NAME, load_options
from scorer.readers.problems import ReferenceDataError

from .competition import phase_folder, settings_name
from .paths import PHASE_SETTINGS, PROGRAM
from .zips import read_bytes


def phase_settings(config: Dict[str, Any], reference_root: str) -> Tuple[Dict[str, bytes], List[str]]:
    """(settings name -> the bytes of its file, problems): each phase's settings, read as the scorer
    reads them; a ``scoring_config.json`` in the organiser's reference data is refused (the settings
    live in ``phase_settings/``)."""
    settings: Dict[str, bytes] = {}
    problems: List[str] = []
    for phase in config["phases"].values():
        folder, name = phase_folder(phase), settings_name(phase)
        source = os.path.join(PHASE_SETTINGS, "%s.json" % name)
        if os.path.isfile(os.path.join(reference_root, folder, CONFIG_NAME)):
            problems.append("%s: %s is set in phase_settings/%s.json; remove the copy in the reference data"
                            % (os.path.join(reference_root, folder), CONFIG_NAME, name))
        if not os.path.isfile(source):
            continue
        with tempfile.TemporaryDirectory() as staged:
            shutil.copyfile(source, os.path.join(staged, CONFIG_NAME))
            try:
                load_options(PROGRAM, staged)
            except ReferenceDataError as error:
                problems.extend(line.replace(os.path.join(staged, CONFIG_NAME), source) for line in error.public)
                continue
        settings[name] = read_bytes(source)
    return settings, problems
