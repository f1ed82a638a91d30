"""Opens the built upload as each platform does and runs each phase as their workers do.

What it reproduces was read in the platforms' code and measured with ../shared/platform_harness
(the real unpackers, workers, ranking query and download rules); keep the two in step.

One zip serves both: Codalab v1.5 (codalab-competitions ``codalab/apps/web/models.py``,
``CompetitionDefBundle.unpack``) reads the first entry whose name contains ``.yaml`` (the v1.5
yaml, ``platforms.V15_YAML``), Codabench (``src/apps/competitions/tasks.py``) reads
``competition.yaml`` (version 2); each must find every file it names, and the upload must hold
nothing of a phase after the first (held back until it opens; both platforms list every phase's
public data and starting kit, Codabench also the tasks' solutions, to participants from
registration: codabench ``src/static/riot/competitions/detail/_tabs.tag``, v1.5
``templates/web/competitions/_get_starting_kit.html``).

Codalab v1.5 (compute worker ``worker.py``): every top-level and phase key must be a model field;
leaderboard and column-group labels match exactly (case and spaces). The worker extracts the
scoring program, the reference data and the submission into ``run/program``, ``run/input/ref``,
``run/input/res`` (every top-level ``*.zip`` inside one is also extracted into a folder of the
same name), adds ``metadata``, ``history/``, ``scores/`` and ``coopetition/`` to ``run/input``,
maps ``$tmp`` to ``run/temp``, pre-creates an empty ``output/detailed_results.html`` watched by
``detailed_result_put.sh`` (``watcher.py``), splits the ``metadata`` command on single spaces (no
shell) and runs it with cwd ``run/``; then it reads ``output/scores.txt`` line by line (one colon
per line, ``float()``). The participant gets ``output/`` (``private/`` goes to the organisers).
Ranking: per column, by value, in the column's direction.

Codabench (version-2 unpacker, ``compute_worker.py``, ``leaderboards.py``): ``competition.yaml``
at the root; tasks, solutions, phases with a start and an end (each end before the next start);
one leaderboard, attached to every phase; a prediction step first, which adds ``metadata`` to
``input/res``; cwd = the program folder; ``scores.json`` preferred; the whole ``output/`` folder
is the submission's scoring result, which participants may download unless the phase has
``hide_score_output`` (``api/serializers/submissions.py``, ``get_scoring_result``). The fact
sheet is checked as ``validate_fact_sheet`` does (``fact_sheet.py``). Ranking: the primary column alone, descending with missing scores (NULL)
first on PostgreSQL, the other columns only breaking ties.

The stock images have no site-packages of ours: the scoring program runs with ``python3 -I -S``.
"""

from __future__ import annotations

import concurrent.futures
import datetime
import io
import json
import math
import os
import shutil
import subprocess
import tempfile
import zipfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

import yaml

from scorer.readers.options import OTHER_PHASES
from scorer.tracks.registry import TRACKS

from .fact_sheet import fact_sheet_problems
from .platforms import V15_YAML, V2_YAML, sorted_phases
from .rules import COMPETITION_KEYS, PHASE_KEYS
from .held_back import GOLD_WINDOW, read_placeholder
from .watcher import DetailedResultsWatcher

PUBLIC_OUTPUTS = ["detailed_results.html", "scores.json", "scores.txt"]


class Report:
    def __init__(self) -> None:
        self.problems: List[str] = []
        self.lines: List[str] = []
        self.verified: Dict[str, List[str]] = {"Codalab v1.5": [], "Codabench": []}

    def fail(self, line: str) -> None:
        self.problems.append(line)

    def ok(self, line: str) -> None:
        self.lines.append(line)

    def summary(self) -> str:
        return "the upload's runs pass on both platforms (with each held-back zip in place); verified " + "; ".join(
            "on %s: %s" % (platform, ", ".join(items)) for platform, items in self.verified.items())


def _extract(data: bytes, folder: str, v15: bool) -> None:
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.startswith("/") or ".." in name.split("/"):
                raise ValueError("unsafe entry %s" % name)
        archive.extractall(folder)
    if not v15:
        return
    entries = os.listdir(folder)
    # worker.py: a single sub-folder holding a ``metadata`` file is moved up one level
    if len(entries) == 1 and os.path.isdir(os.path.join(folder, entries[0])) and \
            os.path.isfile(os.path.join(folder, entries[0], "metadata")):
        inner = os.path.join(folder, entries[0])
        for name in os.listdir(inner):
            shutil.move(os.path.join(inner, name), os.path.join(folder, name))
        os.rmdir(inner)
    # worker.py: every top-level zip is also extracted into a folder named like it, without .zip
    for name in sorted(os.listdir(folder)):
        if name.endswith(".zip") and os.path.isfile(os.path.join(folder, name)):
            with zipfile.ZipFile(os.path.join(folder, name)) as inner_zip:
                inner_zip.extractall(os.path.join(folder, name[:-4]))


def parse_v15(text: str, keys: Sequence[str]) -> Dict[str, float]:
    scores: Dict[str, float] = {}
    for line in text.split("\n"):
        if not line:
            continue
        parts = line.split(":")
        if len(parts) != 2:
            raise ValueError("line %r does not split into key: value" % line)
        key = parts[0].strip()
        if key in keys:
            if key in scores:
                raise ValueError("duplicate key %s" % key)
            scores[key] = float(parts[1])
    return scores


def parse_codabench(text: str) -> Dict[str, float]:
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not all(isinstance(v, (int, float)) for v in data.values()):
        raise ValueError("scores.txt is not a YAML mapping of numbers")
    return {str(k): float(v) for k, v in data.items()}


def _command(metadata_text: str, program: str, input_dir: str, output: str, temp: str,
             python: Sequence[str]) -> List[str]:
    metadata = yaml.safe_load(metadata_text)
    command = metadata["command"]
    for variable, value in (("$program", program), ("$predictions", os.path.join(input_dir, "res")),
                            ("$input", input_dir), ("$output", output), ("$tmp", temp)):
        command = command.replace(variable, value)
    argv = command.split(" ")
    if argv[0] == "python3":
        argv = list(python) + argv[1:]
    return argv


class Run:
    """One submission run by one platform's worker: what it printed, wrote and uploaded."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.returncode: Optional[int] = None
        self.stderr = ""
        self.outputs: List[str] = []
        self.scores: Optional[Dict[str, float]] = None
        self.page = b""  # detailed_results.html as written
        self.uploaded_page = b""  # what the v1.5 watcher uploaded before it was killed
        self.problems: List[str] = []


def run_phase(files: Dict[str, bytes], phase: Dict[str, str], submission: bytes, keys: Sequence[str],
              python: Sequence[str], layout: str, label: str, limit: int) -> Run:
    """Stage and run one submission; ``phase`` names the program and reference zips in ``files``;
    ``layout`` is "v1.5" or "codabench"."""
    result = Run("%s, %s" % (layout, label))
    work = tempfile.mkdtemp(prefix="bundle-check-")
    try:
        v15 = layout == "v1.5"
        root = os.path.join(work, "run" if v15 else "app")
        program, input_dir, output = (os.path.join(root, name) for name in ("program", "input", "output"))
        temp = os.path.join(root, "temp") if v15 else output
        _extract(files[phase["scoring_program"]], program, v15)
        _extract(files[phase["reference_data"]], os.path.join(input_dir, "ref"), v15)
        _extract(submission, os.path.join(input_dir, "res"), v15)
        os.makedirs(output)
        if v15:
            for folder in ("history", "scores", "coopetition", "temp"):
                os.makedirs(os.path.join(root, "input" if folder != "temp" else "", folder), exist_ok=True)
            with open(os.path.join(input_dir, "metadata"), "w") as handle:
                handle.write("input: %s\nprogram: %s\n" % (input_dir, program))
            open(os.path.join(output, "detailed_results.html"), "a").close()
        else:  # Codabench's prediction step puts its metadata beside the submitted files
            with open(os.path.join(input_dir, "res", "metadata"), "w") as handle:
                handle.write("exitCode: 0\n")
        metadata_path = os.path.join(program, "metadata")
        if not os.path.isfile(metadata_path):
            result.problems.append("the scoring program has no metadata file at its root")
            return result
        with open(metadata_path, encoding="utf-8") as handle:
            argv = _command(handle.read(), program, input_dir, output, temp, python)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
        watcher = DetailedResultsWatcher(os.path.join(output, "detailed_results.html")) if v15 else None
        if watcher:
            watcher.start()
        try:
            process = subprocess.run(argv, cwd=root if v15 else program, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, universal_newlines=True, timeout=limit)
        except subprocess.TimeoutExpired:
            result.problems.append("exceeded the execution time limit")
            return result
        finally:
            if watcher:
                watcher.kill()
        result.returncode, result.stderr = process.returncode, process.stderr
        result.outputs = sorted(os.listdir(output))
        page_path = os.path.join(output, "detailed_results.html")
        if os.path.isfile(page_path):
            with open(page_path, "rb") as handle:
                result.page = handle.read()
        if watcher:
            result.uploaded_page = watcher.uploaded()
        if "Traceback" in process.stderr:
            result.problems.append("a traceback reached stderr:\n%s" % process.stderr[-1500:])
        if process.returncode == 0:
            result.scores = _read_scores(output, keys, result.problems)
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _read_scores(output: str, keys: Sequence[str], problems: List[str]) -> Optional[Dict[str, float]]:
    scores_path = os.path.join(output, "scores.txt")
    if not os.path.isfile(scores_path):
        problems.append("no output/scores.txt")
        return None
    with open(scores_path, encoding="ascii") as handle:
        text = handle.read()
    try:
        v15_scores = parse_v15(text, keys)
        codabench_scores = parse_codabench(text)
        with open(os.path.join(output, "scores.json"), encoding="utf-8") as handle:
            json_scores = json.load(handle)
    except (ValueError, OSError, yaml.YAMLError) as error:
        problems.append("scores unreadable: %s" % error)
        return None
    # Beside the scores, the signature of each scored track (which Codabench does not store: it
    # keeps only the keys that are leaderboard columns).
    signatures = json_scores.pop("signature", None)
    if not isinstance(signatures, dict) or not all(isinstance(value, str) for value in signatures.values()):
        problems.append("scores.json: \"signature\" must be an object of strings (track -> signature)")
    if set(codabench_scores) != set(keys) or set(json_scores) != set(keys):
        problems.append("scores.txt and scores.json must hold exactly the leaderboard keys; extra: %s, missing: %s"
                        % (sorted(set(codabench_scores) - set(keys)), sorted(set(keys) - set(codabench_scores))))
    for key, value in v15_scores.items():
        if not math.isfinite(value) or abs(value) >= 1e10:
            problems.append("%s = %r is not a finite number below 1e10 (Codabench stores 10 digits)" % (key, value))
        if codabench_scores.get(key) != value or json_scores.get(key) != value:
            problems.append("%s differs between the v1.5, YAML and JSON readings" % key)
    return v15_scores


def _judge(run: Run, expect_success: bool, report: Report) -> None:
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


def one_track(submission: bytes, filename: str) -> bytes:
    """The submission with only one track's file (or folder)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(submission)) as source, zipfile.ZipFile(buffer, "w") as target:
        for name in source.namelist():
            if name == filename or name.startswith(filename.rstrip("/") + "/"):
                target.writestr(name, source.read(name))
    return buffer.getvalue()


# --------------------------------------------------------------------------------------------
# Ranking: Codabench's ordering query and v1.5's per-column ranking
# --------------------------------------------------------------------------------------------
def codabench_order(rows: List[Tuple[str, Dict[str, float]]], columns: List[Dict[str, Any]],
                    primary_index: int) -> List[str]:
    """Names in Codabench's order: the primary column, then the others by index, each in its
    direction; NULL first when descending and last when ascending (PostgreSQL's defaults)."""
    primary = next(c for c in columns if c["index"] == primary_index)
    ordered = [primary] + sorted((c for c in columns if c is not primary), key=lambda c: c["index"])

    def sort_key(row):
        key = []
        for column in ordered:
            value = row[1].get(column["key"])
            if column["sorting"] == "desc":
                key.append((0, 0.0) if value is None else (1, -value))
            else:
                key.append((1, 0.0) if value is None else (0, value))
        return key
    return [name for name, _ in sorted(rows, key=sort_key)]


def v15_ranks_below(worse: Dict[str, float], better: Dict[str, float], key: str, sort: str) -> bool:
    """v1.5 ranks each column by its values in the column's direction (missing: not ranked)."""
    if key not in worse:
        return True
    if key not in better:
        return False
    return worse[key] < better[key] if sort == "desc" else worse[key] > better[key]


def check_ranking(full: Dict[str, float], singles: Dict[str, Dict[str, float]], track_keys: Dict[str, List[str]],
                  board: Dict[str, Any], v15_columns: Dict[str, Dict[str, Any]], report: Report) -> None:
    columns = board["columns"]
    wrong = []
    for track, scores in singles.items():
        for other, keys in track_keys.items():
            if other == track:
                continue
            for key in keys:
                if key not in v15_columns:
                    continue
                order = codabench_order([("all tracks", full), ("only " + track, scores)], columns,
                                        next(c["index"] for c in columns if c["key"] == key))
                if order[0] != "all tracks":
                    wrong.append("Codabench, %s primary: only-%s ranks first" % (key, track))
                if not v15_ranks_below(scores, full, key, v15_columns[key].get("sort", "desc")):
                    wrong.append("v1.5, column %s: only-%s does not rank below" % (key, track))
    rows = [("all tracks", full)] + [("only " + track, scores) for track, scores in singles.items()]
    order = codabench_order(rows, columns, board["primary_index"])
    primary_key = next(c["key"] for c in columns if c["index"] == board["primary_index"])
    primary_track = next(track for track, keys in track_keys.items() if primary_key in keys)
    entrants = {"all tracks", "only " + primary_track}
    first_outsider = min(order.index(name) for name in order if name not in entrants)
    if any(order.index(name) > first_outsider for name in entrants if name in order):
        wrong.append("Codabench default board (%s): an entry without %s ranks above an entrant: %s"
                     % (primary_key, primary_track, " > ".join(order)))
    for line in wrong:
        report.fail("ranking: " + line)
    if not wrong:
        report.ok("ranking: each single-track entry ranks below the all-track sample in every column of the "
                  "other tracks (Codabench's query with each column as primary, v1.5's per-column ranking); "
                  "default board: %s" % " > ".join(order))


# --------------------------------------------------------------------------------------------
# The bundles themselves
# --------------------------------------------------------------------------------------------
def _read_zip(path: str) -> Tuple[List[str], Dict[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        return names, {name: archive.read(name) for name in names}


def _entry_names(names: Sequence[str], platform: str, report: Report) -> None:
    for name in names:
        if name.startswith(("__MACOSX", "/")) or "\\" in name or ".DS_Store" in name or "__pycache__" in name:
            report.fail("%s: junk or unsafe entry %s" % (platform, name))
        try:
            name.encode("ascii")
        except UnicodeEncodeError:
            report.fail("%s: non-ASCII entry name %r" % (platform, name))


def check_v15_bundle(path: str, report: Report) -> Optional[Dict[str, Any]]:
    names, files = _read_zip(path)
    yaml_entries = [name for name in names if ".yaml" in name]
    # codalab/apps/web/models.py, CompetitionDefBundle.unpack: [x for x in zf.namelist() if ".yaml" in x][0]
    if not yaml_entries or yaml_entries[0] != V15_YAML:
        report.fail("v1.5: %s must be the first entry containing .yaml (v1.5 reads that one), found %s"
                    % (V15_YAML, yaml_entries[:3]))
        return None
    _entry_names(names, "v1.5", report)
    config = yaml.safe_load(files[V15_YAML])
    if not isinstance(config.get("title"), str) or len(config["title"]) > 100:
        report.fail("v1.5: the title must be at most 100 characters")
    unknown = sorted(set(config) - COMPETITION_KEYS) + sorted(
        "phases.%s" % key for phase in config["phases"].values() for key in set(phase) - PHASE_KEYS)
    if unknown:
        report.fail("v1.5: keys that are not model fields (the upload fails): %s" % ", ".join(unknown))
    referenced = [config.get("image")] + list((config.get("html") or {}).values())
    for phase in config["phases"].values():
        referenced += [phase[field] for field in ("scoring_program", "reference_data", "input_data",
                                                  "ingestion_program", "public_data", "starting_kit") if field in phase]
    for name in referenced:
        if name not in files:
            report.fail("v1.5: competition.yaml refers to %s, which is not an entry of the bundle" % name)
    board = config["leaderboard"]
    boards = {value["label"] for value in board["leaderboards"].values()}
    groups = {value["label"] for value in (board.get("column_groups") or {}).values()}
    for key, column in board["columns"].items():
        if column["leaderboard"]["label"] not in boards:
            report.fail("v1.5: column %s: leaderboard label %r matches no leaderboard exactly"
                        % (key, column["leaderboard"]["label"]))
        if "column_group" in column and column["column_group"]["label"] not in groups:
            report.fail("v1.5: column %s: column group %r matches no group exactly" % (key, column["column_group"]["label"]))
    never_ends = sorted_phases(config)[-1].get("phase_never_ends") is True if config.get("phases") else False
    if not config.get("end_date") and not never_ends:
        report.fail("v1.5: no end_date and no phase_never_ends: the last phase would never end by accident")
    if config.get("end_date") and never_ends:
        report.fail("v1.5: end_date ends the competition whose last phase never ends (phase_never_ends)")
    report.ok("v1.5 unpacker: %s first, only model fields, %d referenced entries present, "
              "labels match exactly" % (V15_YAML, len(set(referenced))))
    report.verified["Codalab v1.5"].append("the unpacker's rules")
    return dict(config=config, files=files)


def check_codabench_bundle(path: str, report: Report) -> Optional[Dict[str, Any]]:
    names, files = _read_zip(path)
    if V2_YAML not in files:
        report.fail("Codabench: no competition.yaml at the root")
        return None
    _entry_names(names, "Codabench", report)
    config = yaml.safe_load(files[V2_YAML])
    fail = lambda line: report.fail("Codabench: " + line)  # noqa: E731
    if config.get("version") != 2:
        fail("version must be 2 (a native bundle)")
    for line in fact_sheet_problems(config.get("fact_sheet")):
        fail("fact_sheet: " + line)
    for field in ("image", "terms"):
        if config.get(field) not in files:
            fail("%s must name a file of the bundle" % field)
    for page in [{"file": config.get("terms")}] + list(config.get("pages") or []):
        if not files.get(page.get("file"), b"").strip():
            fail("page %s is missing or empty" % page.get("file"))
    tasks = {task["index"]: task for task in config.get("tasks") or []}
    for task in tasks.values():
        for field in ("scoring_program", "reference_data"):
            if task.get(field) not in files:
                fail("task %s: %s %s is not in the bundle" % (task["index"], field, task.get(field)))
    for solution in config.get("solutions") or []:
        if solution.get("path") not in files or not set(solution.get("tasks", [])) <= set(tasks):
            fail("solution %s: missing file or task" % solution.get("index"))
    phases = sorted(config.get("phases") or [], key=lambda phase: phase["index"])
    previous_end = None
    for number, phase in enumerate(phases):
        where = "phase %s" % phase.get("name")
        start, end = (_when(phase.get(field)) for field in ("start", "end"))
        if start is None or (end is None and number != len(phases) - 1):
            fail("%s: needs a start and an end (only the last phase may have no end)" % where)
            continue
        if phase.get("auto_migrate_to_this_phase") and number == 0:
            fail("%s: the first phase cannot migrate submissions from a previous one" % where)
        if end is not None and end <= start:
            fail("%s: ends before it starts" % where)
        if previous_end is not None and start <= previous_end:
            fail("%s: starts before (or when) the previous phase ends; Codabench refuses the bundle" % where)
        gap = start - previous_end if previous_end is not None else None
        if gap is not None and gap > datetime.timedelta(seconds=1) and not (
                gap == GOLD_WINDOW and phase.get("auto_migrate_to_this_phase")):
            # the one gap allowed: the day before a migrating phase whose gold is attached then (held_back.py)
            fail("%s: %s with no open phase before it" % (where, gap))
        previous_end = end
        if phase.get("hide_output") is not False and not (phase.get("hide_output") is True and number > 0):
            fail("%s: needs hide_output: false (participants would not see their logs); only a later (blind) phase "
                 "hides them" % where)
        if not phase.get("tasks") or not set(phase["tasks"]) <= set(tasks):
            fail("%s: tasks must point at the bundle's tasks" % where)
        for field in ("max_submissions_per_day", "max_submissions", "execution_time_limit"):
            if not isinstance(phase.get(field), int):
                fail("%s: %s must be explicit" % (where, field))
    boards = config.get("leaderboards") or []
    if len(boards) != 1:
        fail("exactly one leaderboard (Codabench attaches the first to every phase), found %d" % len(boards))
        return None
    board = boards[0]
    if board.get("submission_rule") != "Force_Last":
        fail("the leaderboard's submission_rule must be Force_Last (each participant's latest finished "
             "submission, without a manual step), found %r" % board.get("submission_rule"))
    columns = board.get("columns") or []
    indexes = [column.get("index") for column in columns]
    if len(set(indexes)) != len(columns) or len({c.get("key") for c in columns}) != len(columns):
        fail("column keys and indexes must be unique")
    for column in columns:
        if not 0 < len(str(column.get("title", ""))) <= 36 or len(str(column.get("key", ""))) > 36:
            fail("column %s: title and key must be 1 to 36 characters" % column.get("key"))
        if column.get("sorting") not in ("asc", "desc") or not isinstance(column.get("precision"), int):
            fail("column %s: sorting asc|desc and an integer precision are required" % column.get("key"))
    if board.get("primary_index") not in indexes:
        fail("primary_index %r is not a column index" % board.get("primary_index"))
        return None
    report.ok("Codabench v2 unpacker: %d tasks, %d solutions, %d phases with start and end (1 s apart, or a day "
              "before a migrating phase whose gold is attached then%s), one "
              "Force_Last leaderboard of %d columns, %s"
              % (len(tasks), len(config.get("solutions") or []), len(phases),
                 "; the last one never ends" if phases and phases[-1].get("end") is None else "", len(columns),
                 "a fact sheet of %d questions" % len(config["fact_sheet"]) if config.get("fact_sheet") else "no fact sheet"))
    report.verified["Codabench"].append("the v2 unpacker's rules, phase dates, Force_Last, the fact sheet")
    return dict(config=config, files=files, board=board, phases=phases, tasks=tasks)


def _when(value: Any) -> Optional[datetime.datetime]:
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
    if isinstance(value, str) and value:
        return datetime.datetime.fromisoformat(value)
    return None


def check_held_back(v15: Dict[str, Any], codabench: Dict[str, Any], release_all: bool, report: Report) -> None:
    """Nothing of a phase after the first in the upload (unless ``release_all``), no entry that neither
    yaml names, and no phase's reference data naming the ids of a later phase."""
    config, v2 = v15["config"], codabench["config"]
    phases = sorted_phases(config)
    named = {V15_YAML, V2_YAML, config.get("image"), v2.get("terms")} | set((config.get("html") or {}).values())
    for phase in phases:
        named |= {phase[field] for field in ("scoring_program", "reference_data", "public_data", "starting_kit")
                  if field in phase}
    for phase in v2.get("phases") or []:
        named |= {phase[field] for field in ("public_data", "starting_kit") if field in phase}
    named |= {solution["path"] for solution in v2.get("solutions") or []}
    for name in sorted(set(v15["files"]) - named):
        report.fail("upload: %s is named by neither yaml (participants may get it by other means; leave it out)" % name)
    later = phases[1:] if not release_all else []
    for phase in later:
        for field in ("public_data", "starting_kit"):
            if field in phase:
                report.fail("v1.5: phase %s: %s is in the upload: both platforms list it to participants from "
                            "registration; it is released when the phase opens" % (phase["label"], field))
    later_v2 = [phase for phase in v2["phases"] if phase["index"] >= 1] if not release_all else []
    later_tasks = {task for phase in later_v2 for task in phase["tasks"]}
    for phase in later_v2:
        for field in ("public_data", "starting_kit"):
            if field in phase:
                report.fail("Codabench: phase %s: %s is in the upload (listed to participants from registration)"
                            % (phase["name"], field))
    for solution in v2.get("solutions") or []:
        if set(solution["tasks"]) & later_tasks:
            report.fail("Codabench: solution %s belongs to a later phase's task: Codabench lists solutions to "
                        "participants, and cannot add one after the upload; leave it out" % solution["path"])
    labels = [str(phase["label"]) for phase in phases]
    for number, phase in enumerate(phases):
        with zipfile.ZipFile(io.BytesIO(v15["files"][phase["reference_data"]])) as archive:
            if OTHER_PHASES not in archive.namelist():
                continue
            named_phases = set(json.loads(archive.read(OTHER_PHASES).decode("utf-8")))
        if named_phases - set(labels[:number]):
            report.fail("phase %s: its reference data names the ids of a later phase (%s): one extra id in a "
                        "submission would tell whether it is one" % (phase["label"], ", ".join(sorted(named_phases))))
    if not report.problems:
        report.ok("held back: %s; every entry is named by a yaml; no reference data names a later phase's ids"
                  % ("nothing of the phases after %s in the upload" % phases[0]["label"] if not release_all
                     else "--release-all: every phase's files in the upload"))
        report.verified["Codalab v1.5"].append("later phases held back" if not release_all else "every phase released")
        report.verified["Codabench"].append("later phases held back (no public data, kit or solution)"
                                            if not release_all else "every phase released")


def check_placeholders(v15: Dict[str, Any], held_back: Dict[str, bytes], report: Report) -> None:
    """Each later phase's reference data in the upload is a placeholder and nothing else: no gold, no
    input, no stand-in made from them (whatever competition.yaml names)."""
    phases = sorted_phases(v15["config"])
    for phase in phases[1:]:
        name = phase["reference_data"]
        if name in held_back and read_placeholder(v15["files"][name]) is None:
            report.fail("phase %s: %s in the upload is not a placeholder: a later phase's data goes up when it is "
                        "due" % (phase["label"], name))
    if held_back and not report.problems:
        report.ok("held back: %s: placeholders in the upload, nothing of their data"
                  % ", ".join("%s (%s)" % (phase["label"], phase["reference_data"]) for phase in phases
                              if phase["reference_data"] in held_back))
        for platform in ("Codalab v1.5", "Codabench"):
            report.verified[platform].append("no later phase's reference data in the upload (placeholders)")


def _is_blind(reference_zip: bytes) -> bool:
    """Whether a phase's reference data sets ``"blind": true`` (scorer/outputs/blind.py)."""
    with zipfile.ZipFile(io.BytesIO(reference_zip)) as archive:
        if "scoring_config.json" not in archive.namelist():
            return False
        try:
            return json.loads(archive.read("scoring_config.json").decode("utf-8")).get("blind") is True
        except (ValueError, AttributeError):
            return False


def check_bundle(path: str, samples: Dict[str, bytes], broken: bytes, python: Sequence[str], report: Report,
                 tracks: Sequence = TRACKS, release_all: bool = False,
                 held_back: Optional[Dict[str, bytes]] = None) -> None:
    """The upload at ``path`` as both platforms read it; ``samples``: each phase's sample submission
    (zip bytes) per reference-data zip name, also for phases whose sample is held back; ``tracks``:
    the competition's tracks; ``held_back``: the real reference data zip of each later phase (by its
    name), a placeholder in the upload (bundle/held_back.py): the runs use it, as the platform will
    once the organiser has attached it."""
    v15 = check_v15_bundle(path, report)
    codabench = check_codabench_bundle(path, report)
    if report.problems or v15 is None or codabench is None:
        return
    check_held_back(v15, codabench, release_all, report)
    check_placeholders(v15, held_back or {}, report)
    if report.problems:
        return
    for layout in (v15, codabench):
        layout["files"] = dict(layout["files"], **(held_back or {}))
    config = v15["config"]
    keys = list(config["leaderboard"]["columns"])
    jobs = []  # (files, phase zips, submission, layout, label, expect success, single track)
    phases = sorted_phases(config)
    for number, phase in enumerate(phases):
        sample = samples.get(phase["reference_data"])
        task = codabench["tasks"][codabench["phases"][number]["tasks"][0]]
        if sample is None:
            report.fail("phase %s: no sample submission to run" % phase.get("label"))
            continue
        with zipfile.ZipFile(io.BytesIO(sample)) as archive:
            if any(name.split("/")[-1] == "metadata" for name in archive.namelist()):
                report.fail("phase %s: the sample submission holds a file named metadata: Codabench (and v1.5 "
                            "in a code phase) would run it as a code submission" % phase["label"])
        for layout, files, zips in (("v1.5", v15["files"], phase), ("codabench", codabench["files"], task)):
            label = "phase %s" % phase["label"]
            jobs.append((files, zips, sample, layout, label + ", sample submission", True, None))
            jobs.append((files, zips, broken, layout, label + ", broken submission", False, None))
            if number == 0 and len(tracks) > 1:
                for track in tracks:
                    jobs.append((files, zips, one_track(sample, track.filename), layout,
                                 label + ", only " + track.name, True, track.name))
    limit = int(phases[0].get("execution_time_limit", 600))
    # The v1.5 runs wait 5 s for the watcher: run side by side (they sleep, they do not compute).
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        futures = [pool.submit(run_phase, files, zips, submission, keys, python, layout, label, limit)
                   for files, zips, submission, layout, label, _, _ in jobs]
        runs = [future.result() for future in futures]
    full: Dict[str, Dict[str, float]] = {}
    singles: Dict[str, Dict[str, Dict[str, float]]] = {"v1.5": {}, "codabench": {}}
    blind = {str(phase["label"]) for phase in phases if _is_blind(v15["files"][phase["reference_data"]])}
    for (files, zips, submission, layout, label, expect, track), run in zip(jobs, runs):
        _judge(run, expect, report)
        if run.scores is None:
            continue
        phase_label = label.split(",")[0][len("phase "):]
        if phase_label in blind:  # every key its not-entered value, whatever the submission
            from scorer.outputs.blind import blind_scores
            expected = blind_scores([t.name for t in tracks])
            if run.scores != {key: expected[key] for key in run.scores}:
                report.fail("%s: a blind phase's scores must all be the not-entered values; got %s"
                            % (label, sorted(set(run.scores.values()))))
            else:
                report.ok("%s: blind: every leaderboard key holds its not-entered value" % label)
                verified = "blind phase %s: no score in output/" % phase_label
                if verified not in report.verified["Codabench"]:
                    report.verified["Codabench"].append(verified)
            continue
        if track:
            singles[layout][track] = run.scores
        elif label.startswith("phase %s," % phases[0]["label"]):
            full[layout] = run.scores
    if report.problems:
        return
    report.verified["Codalab v1.5"].append("the worker's layout (run/, nested zips, input/metadata, $tmp)")
    report.verified["Codalab v1.5"].append("output/ = scores and detailed results only")
    report.verified["Codalab v1.5"].append("detailed results uploaded complete under the watcher's timing")
    report.verified["Codabench"].append("the worker's layout (res/metadata from the prediction step; "
                                        "no metadata file in the sample submissions)")
    report.verified["Codabench"].append("no gold in the downloadable output/")
    track_keys = {track.name: [key for key in keys if key in track.keys] for track in tracks}
    if singles["v1.5"] != singles["codabench"] or full["v1.5"] != full["codabench"]:
        report.fail("ranking: the two workers gave different scores for the same submissions")
        return
    if not singles["codabench"]:  # one track: no single-track entries to rank
        return
    check_ranking(full["codabench"], singles["codabench"], track_keys, codabench["board"],
                  config["leaderboard"]["columns"], report)
    if not report.problems:
        report.verified["Codalab v1.5"].append("ranking of single-track entries")
        report.verified["Codabench"].append("ranking of single-track entries (its ordering query)")

