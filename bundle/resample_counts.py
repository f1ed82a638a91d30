"""The count lanes of a phase's intervals, for its reference data (``scorer/outputs/resample_counts.py``).

A phase whose settings show intervals (``detailed_results: full``, ``interval_resamples`` > 0)
gets the resamples of each of its tracks' numbers of items, drawn once here, so that no run draws
them. The numbers of items are those of the phase's sample submission (the baselines) scored on
the phase's gold: a track's items are its gold's, whatever is submitted; a run whose number differs
draws its resamples itself (the same numbers, slower).
"""

from __future__ import annotations

import json
from typing import Dict, Iterable, Optional, Sequence

from scorer.outputs.drawn_resamples import drawn_resamples
from scorer.outputs.resample_counts import FILE_NAME, FORMAT, LANE_BYTES, MAX_LANES
from scorer.outputs.resampling import INTERVAL_SEED, MAX_INTERVAL_WORK, interval_work
from scorer.readers.options import apply_settings, load_options
from scorer.run.in_process import phase_tracks, scored_files
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
    phase = phase_tracks(gold_dir, tracks)
    files = locate_submission(submission_dir, [track for track, _ in phase]).files
    sizes = [len(result.statistics.items) for _, result, error in scored_files(phase, files, options, gold_dir)
             if error is None and interval_work(result.statistics, resamples) <= MAX_INTERVAL_WORK]
    data = file_bytes(sizes, resamples, INTERVAL_SEED)
    return {} if data is None else {FILE_NAME: data}


def counts_bytes(n_items: int, resamples: int, seed: int) -> bytes:
    """The count lanes of ``resample_indices(n_items, resamples, seed)``, item after item: for each
    item, how many times each resample draws it (``LANE_BYTES`` little-endian bytes a resample)."""
    counts = [0] * (n_items * resamples)
    for resample, indices in enumerate(drawn_resamples(n_items, resamples, seed)):
        for index in indices:
            counts[index * resamples + resample] += 1
    return b"".join(count.to_bytes(LANE_BYTES, "little") for count in counts)


def file_bytes(item_counts: Iterable[int], resamples: int, seed: int) -> Optional[bytes]:
    """``FILE_NAME``'s content for the numbers of items ``item_counts`` (each once, smallest first;
    those above ``MAX_LANES`` items x resamples left out); None when none is left. Deterministic."""
    sizes = sorted({n for n in item_counts if n > 0 and n * resamples <= MAX_LANES})
    if not sizes or resamples <= 0:
        return None
    sets, payloads, offset = [], [], 0
    for n_items in sizes:
        payload = counts_bytes(n_items, resamples, seed)
        sets.append({"items": n_items, "offset": offset})
        payloads.append(payload)
        offset += len(payload)
    header = json.dumps({"format": FORMAT, "resamples": resamples, "seed": seed, "sets": sets}, sort_keys=True,
                        separators=(",", ":")) + "\n"
    return header.encode("ascii") + b"".join(payloads)
