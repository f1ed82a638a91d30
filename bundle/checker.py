"""Opens the built upload as each platform does and runs each phase as their workers do.

What the checks reproduce was read in the platforms' code and checked against
../shared/platform_harness (the real unpackers, workers, ranking query and download rules); keep
the two in step. One zip serves both platforms: each must find every file it names, and the upload
must hold nothing of a phase after the first (held back until it opens).

Each check is a function ``check_*(upload, report)`` of one concern, in ``bundle/checks/``:

- ``unpackers``: the upload as Codalab v1.5's and Codabench's unpackers read it;
- ``later_phases``: nothing of a later phase in the upload, and a placeholder for its reference data;
- ``runs``: every phase's sample submission, a broken one and each single-track entry, run in both
  workers' layouts (``worker``, the scores read as each platform reads them: ``scores``);
- ``ranking``: both workers' scores agree, and single-track entries rank as they should.

``yield_checks`` gives them in order; a check runs only when the checks before it that it builds on
passed (the runs need an upload both unpackers accept).
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, Optional, Sequence

from scorer.tracks.registry import TRACKS

from .checks.checked_upload import CheckedUpload
from .checks.later_phases import check_later_phases_held_back, check_placeholders
from .checks.ranking import check_ranking, check_workers_agree
from .checks.report import Report
from .checks.runs import check_runs, check_sample_submissions
from .checks.unpackers import check_codabench_unpacker, check_v15_unpacker

Check = Callable[[CheckedUpload, Report], None]


def yield_checks(report: Report) -> Iterator[Check]:
    """The checks in the order they run; the next group only once ``report`` holds no problem."""
    yield check_v15_unpacker
    yield check_codabench_unpacker
    if report.problems:
        return
    yield check_later_phases_held_back
    yield check_placeholders
    if report.problems:
        return
    yield check_sample_submissions
    yield check_runs
    if report.problems:
        return
    yield check_workers_agree
    if report.problems:
        return
    yield check_ranking


def check_bundle(path: str, samples: Dict[str, bytes], python: Sequence[str], report: Report,
                 tracks: Sequence = TRACKS, release_all: bool = False,
                 held_back: Optional[Dict[str, bytes]] = None) -> None:
    """Every check of the upload at ``path`` (``CheckedUpload`` says what the arguments hold), into
    ``report``."""
    upload = CheckedUpload(path, samples, python, tracks, release_all, held_back)
    for check in yield_checks(report):
        check(upload, report)
