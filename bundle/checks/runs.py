"""Every phase's sample submission, a broken one and the single-track entries, run in both workers'
layouts (``worker.py``), and what each run shows a participant."""

from __future__ import annotations

import concurrent.futures
import io
import json
import zipfile
from typing import Dict, List, Optional, Sequence

from scorer.outputs.blind import blind_scores
from scorer.tracks.registry import TRACKS

from ..competition import sorted_phases
from ..zips import zip_bytes
from .checked_upload import CheckedUpload
from .report import Report
from .worker import Run, run_phase

PUBLIC_OUTPUTS = ["detailed_results.html", "scores.json", "scores.txt"]


class Job:
    """One run to make: ``files`` (the upload's, held-back zips attached) with ``zips`` naming the
    program and the reference data (a v1.5 phase or a Codabench task), ``submission`` (zip bytes),
    in ``layout``; ``track``: the one track of a single-track entry."""

    def __init__(self, files: Dict[str, bytes], zips: Dict[str, str], submission: bytes, layout: str, label: str,
                 expect_success: bool, track: Optional[str] = None) -> None:
        self.files, self.zips, self.submission, self.layout = files, zips, submission, layout
        self.label, self.expect_success, self.track = label, expect_success, track


def broken_submission(tracks: Sequence = TRACKS) -> bytes:
    """A submission every phase must refuse, whatever the track's format: the first track's file
    holding bytes that are not UTF-8 (every reader refuses them)."""
    return zip_bytes({}, {tracks[0].filename: b"\xff\xfe not UTF-8 \xc3\x28\n"})


def one_track(submission: bytes, filename: str) -> bytes:
    """The submission with only one track's file (or folder)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(submission)) as source, zipfile.ZipFile(buffer, "w") as target:
        for name in source.namelist():
            if name == filename or name.startswith(filename.rstrip("/") + "/"):
                target.writestr(name, source.read(name))
    return buffer.getvalue()


def _is_blind(reference_zip: bytes) -> bool:
    """Whether a phase's reference data sets ``"blind": true`` (scorer/outputs/blind.py)."""
    with zipfile.ZipFile(io.BytesIO(reference_zip)) as archive:
        if "scoring_config.json" not in archive.namelist():
            return False
        try:
            return json.loads(archive.read("scoring_config.json").decode("utf-8")).get("blind") is True
        except (ValueError, AttributeError):
            return False


def check_sample_submissions(upload: CheckedUpload, report: Report) -> None:
    """Every phase has a sample submission to run, and none holds a file a platform would run as code."""
    for phase in sorted_phases(upload.v15):
        sample = upload.samples.get(phase["reference_data"])
        if sample is None:
            report.fail("phase %s: no sample submission to run" % phase.get("label"))
            continue
        with zipfile.ZipFile(io.BytesIO(sample)) as archive:
            if any(name.split("/")[-1] == "metadata" for name in archive.namelist()):
                report.fail("phase %s: the sample submission holds a file named metadata: Codabench (and v1.5 "
                            "in a code phase) would run it as a code submission" % phase["label"])


def jobs(upload: CheckedUpload) -> List[Job]:
    """The runs of every phase in both layouts: its sample submission and a broken one; on the first
    phase of a competition of several tracks, each track's entry alone."""
    files = upload.run_files()
    broken = broken_submission(upload.tracks)
    tasks, codabench_phases = upload.codabench_tasks(), upload.codabench_phases()
    made = []
    for number, phase in enumerate(sorted_phases(upload.v15)):
        sample = upload.samples.get(phase["reference_data"])
        task = tasks[codabench_phases[number]["tasks"][0]]
        if sample is None:
            continue
        for layout, zips in (("v1.5", phase), ("codabench", task)):
            label = "phase %s" % phase["label"]
            made.append(Job(files, zips, sample, layout, label + ", sample submission", True))
            made.append(Job(files, zips, broken, layout, label + ", broken submission", False))
            if number == 0 and len(upload.tracks) > 1:
                for track in upload.tracks:
                    made.append(Job(files, zips, one_track(sample, track.filename), layout,
                                    label + ", only " + track.name, True, track.name))
    return made


def judge_run(run: Run, expect_success: bool, report: Report) -> None:
    """What one run shows a participant: only the scores and the page in ``output/``, the page complete
    as v1.5's watcher uploads it, an exit and message as expected."""
    for problem in run.problems:
        report.fail("%s: %s" % (run.label, problem))
    if run.returncode is None:
        return
    if run.outputs != PUBLIC_OUTPUTS:
        report.fail("%s: output/ must hold only %s (participants can download it), found %s"
                    % (run.label, ", ".join(PUBLIC_OUTPUTS), ", ".join(run.outputs)))
    if not run.page:
        report.fail("%s: detailed_results.html is empty" % run.label)
    elif run.label.startswith("v1.5") and run.uploaded_page != run.page:
        report.fail("%s: the v1.5 watcher uploaded %d of %d bytes of detailed_results.html before the worker "
                    "killed it" % (run.label, len(run.uploaded_page), len(run.page)))
    if not expect_success:
        if run.returncode == 0 or not run.stderr.strip():
            report.fail("%s: expected a non-zero exit with a message, got exit %d" % (run.label, run.returncode))
        else:
            report.ok("%s: exit %d, %s" % (run.label, run.returncode, run.stderr.strip().splitlines()[0]))
        return
    if run.returncode != 0:
        report.fail("%s: exit %d:\n%s" % (run.label, run.returncode, run.stderr[-1500:]))
    elif run.scores is not None and not run.problems:
        uploaded = " (page uploaded complete under the watcher's timing)" if run.label.startswith("v1.5") else ""
        report.ok("%s: exit 0, %d leaderboard scores, output/ = %s%s"
                  % (run.label, len(run.scores), ", ".join(run.outputs), uploaded))


def check_runs(upload: CheckedUpload, report: Report) -> None:
    """Every job run and judged (``judge_run``); a blind phase's scores all their not-entered value;
    the scores of the first phase's sample and of each single-track entry kept in ``upload``."""
    phases = sorted_phases(upload.v15)
    keys = list(upload.v15["leaderboard"]["columns"])
    todo = jobs(upload)
    limit = int(phases[0].get("execution_time_limit", 600))
    # The v1.5 runs wait 5 s for the watcher: run side by side (they sleep, they do not compute).
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        futures = [pool.submit(run_phase, job.files, job.zips, job.submission, keys, upload.python, job.layout,
                               job.label, limit) for job in todo]
        runs = [future.result() for future in futures]
    files = upload.run_files()
    blind = {str(phase["label"]) for phase in phases if _is_blind(files[phase["reference_data"]])}
    for job, run in zip(todo, runs):
        judge_run(run, job.expect_success, report)
        if run.scores is None:
            continue
        phase_label = job.label.split(",")[0][len("phase "):]
        if phase_label in blind:  # every key its not-entered value, whatever the submission
            expected = blind_scores([t.name for t in upload.tracks])
            if run.scores != {key: expected[key] for key in run.scores}:
                report.fail("%s: a blind phase's scores must all be the not-entered values; got %s"
                            % (job.label, sorted(set(run.scores.values()))))
            else:
                report.ok("%s: blind: every leaderboard key holds its not-entered value" % job.label)
                verified = "blind phase %s: no score in output/" % phase_label
                if verified not in report.verified["Codabench"]:
                    report.verified["Codabench"].append(verified)
            continue
        if job.track:
            upload.single_scores[job.layout][job.track] = run.scores
        elif job.label.startswith("phase %s," % phases[0]["label"]):
            upload.full_scores[job.layout] = run.scores
    if report.problems:
        return
    report.verified["Codalab v1.5"].append("the worker's layout (run/, nested zips, input/metadata, $tmp)")
    report.verified["Codalab v1.5"].append("output/ = scores and detailed results only")
    report.verified["Codalab v1.5"].append("detailed results uploaded complete under the watcher's timing")
    report.verified["Codabench"].append("the worker's layout (res/metadata from the prediction step; "
                                        "no metadata file in the sample submissions)")
    report.verified["Codabench"].append("no gold in the downloadable output/")
