"""The count lanes of a phase's intervals, for its reference data (``scorer/outputs/resample_counts.py``).

A phase whose settings show intervals (``detailed_results: full``, ``interval_resamples`` > 0)
gets the resamples of each of its tracks' numbers of items, drawn once here, so that no run draws
them. The numbers of items are those of the phase's sample submission (the baselines) scored on
the phase's gold: a track's items are its gold's, whatever is submitted; a run whose number differs
draws its resamples itself (the same numbers, slower).
"""

from __future__ import annotations

import json
from typing import Dict, Sequence

from scorer.outputs.resample_counts import FILE_NAME, file_bytes
from scorer.outputs.resampling import INTERVAL_SEED, MAX_INTERVAL_WORK, interval_work
from scorer.readers.options import apply_settings, load_options
from scorer.run.in_process import scored_files
from scorer.run.submission import locate_submission


def phase_count_lanes(program_dir: str, gold_dir: str, submission_dir: str, settings: bytes, tracks: Sequence
                      ) -> Dict[str, bytes]:
    """``{FILE_NAME: its bytes}`` for the phase on ``gold_dir`` (``settings``: the phase's
    ``scoring_config.json``, over the program's in ``program_dir``; ``submission_dir``: its sample
    submission), or ``{}`` when the phase shows no intervals or none of its tracks' resamples fit
    the file."""
    options = apply_settings(load_options(program_dir, gold_dir), json.loads(settings.decode("utf-8")), FILE_NAME)
    if options.detailed_results != "full" or not options.interval_resamples or options.blind:
        return {}
    resamples = options.interval_resamples
    found = [(track, track.find_gold(gold_dir)) for track in tracks]
    phase = [(track, gold) for track, gold in found if gold is not None]
    files = locate_submission(submission_dir, [track for track, _ in phase]).files
    sizes = [len(result.statistics.items) for _, result, error in scored_files(phase, files, options, gold_dir)
             if error is None and interval_work(result.statistics, resamples) <= MAX_INTERVAL_WORK]
    data = file_bytes(sizes, resamples, INTERVAL_SEED)
    return {} if data is None else {FILE_NAME: data}
