#!/usr/bin/env python3
"""Build the two uploads of the competition, and check them the way the platforms will use them.

    python3 build_bundle.py [--reference-data DIR] [--out dist] [--no-check]

1. validates competition.yaml (and phase_settings/) against the scoring program's tracks and both
   platforms' rules;
2. writes, reproducibly (same sources, same bytes):
   dist/competition_bundle.zip  for Codalab v1.5: competition.yaml without its codabench: block,
                                pages, logo, and the nested zips (scoring program with the nltk
                                files it loads vendored, reference data with the phase's
                                scoring_config.json and public data per phase, starting kit);
   dist/codabench_bundle.zip    for Codabench: a native version-2 competition.yaml (tasks,
                                solutions, phases with start and end, one Force_Last leaderboard)
                                and the same files, plus each phase's sample submission;
   dist/starting_kit.zip;
3. checks both: unpacks them as the platforms do and runs every phase's sample submission, a
   broken one and one single-track entry per track in both workers' layouts (bundle/checker.py).

``--reference-data DIR`` holds one folder per phase (``dev/``, ``test/``: the ``<folder>`` of each
phase's ``<folder>_reference_data.zip``); it defaults to the sample gold in reference_data/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
sys.path.insert(0, os.path.join(ROOT, "starting_kit"))

import yaml  # noqa: E402

from bundle.checker import Report, check_bundles  # noqa: E402
from bundle.platforms import date_lines, ignored_keys, solution_name, v15_yaml_text, v2_config  # noqa: E402
from bundle.public_data import derive_public_data, public_ids  # noqa: E402
from bundle.rules import phase_folder, validate  # noqa: E402
from bundle.kit import fill_template, generated_sections, sample_scores  # noqa: E402
from bundle.vendor import VendorError, vendored_files  # noqa: E402
from bundle.zips import folder_entries, write_zip  # noqa: E402
from scorer.options import CONFIG_NAME, OTHER_PHASES, load_options  # noqa: E402
from scorer.problems import ReferenceDataError  # noqa: E402
from scorer.registry import LOWER_IS_BETTER, TRACKS  # noqa: E402

PAGES = os.path.join(ROOT, "pages")
PHASE_SETTINGS = os.path.join(ROOT, "phase_settings")
PROGRAM = os.path.join(ROOT, "scoring_program")
KIT = os.path.join(ROOT, "starting_kit")
KIT_FILES = ("README.md", "README.ipynb", "baselines.py", "score_locally.py", "check_format.py")


def _zip_bytes(entries: Dict[str, str], data: Dict[str, bytes]) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "x.zip")
        write_zip(path, entries, data.items())
        with open(path, "rb") as handle:
            return handle.read()


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _folder_data(folder: str, prefix: str = "") -> Dict[str, bytes]:
    return {name: _read(path) for name, path in folder_entries(folder, prefix).items()}


def broken_submission() -> bytes:
    """A submission every phase must refuse, whatever the track's format: the first track's file
    holding bytes that are not UTF-8 (every reader refuses them)."""
    return _zip_bytes({}, {TRACKS[0].filename: b"\xff\xfe not UTF-8 \xc3\x28\n"})


def phase_settings(config, reference_root: str) -> Tuple[Dict[str, bytes], List[str]]:
    """Each phase's scoring_config.json (from phase_settings/<folder>.json), checked by the scorer."""
    settings: Dict[str, bytes] = {}
    problems: List[str] = []
    for phase in config["phases"].values():
        folder = phase_folder(phase)
        source = os.path.join(PHASE_SETTINGS, "%s.json" % folder)
        if os.path.isfile(os.path.join(reference_root, folder, CONFIG_NAME)):
            problems.append("%s: %s is set in phase_settings/%s.json; remove the copy in the reference data"
                            % (os.path.join(reference_root, folder), CONFIG_NAME, folder))
        if not os.path.isfile(source):
            continue
        with tempfile.TemporaryDirectory() as staged:
            shutil.copyfile(source, os.path.join(staged, CONFIG_NAME))
            try:
                load_options(PROGRAM, staged)
            except ReferenceDataError as error:
                problems.extend(line.replace(os.path.join(staged, CONFIG_NAME), source) for line in error.public)
                continue
        settings[folder] = _read(source)
    return settings, problems


def load_yaml(path: str) -> Tuple[str, Any, str]:
    """(text, value, problem) of competition.yaml; the problem is one line naming the place."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        return text, yaml.safe_load(text), ""
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = "line %d, column %d: " % (mark.line + 1, mark.column + 1) if mark else ""
        line = text.split("\n")[mark.line] if mark and mark.line < text.count("\n") + 1 else ""
        hint = ("YAML indents with spaces only; replace the TAB character(s) on that line with spaces"
                if "\t" in line or "\t" in str(getattr(error, "problem", "")) else
                "not valid YAML (%s)" % getattr(error, "problem", error))
        return text, None, "competition.yaml: %s%s" % (where, hint)


def build(reference_root: str, out_dir: str, cache: str, check: bool, python: List[str]) -> int:
    yaml_text, config, problem = load_yaml(os.path.join(ROOT, "competition.yaml"))
    if problem:
        print(problem, file=sys.stderr)
        return 1
    problems = validate(config, PAGES, reference_root, TRACKS, LOWER_IS_BETTER)
    if not problems:
        settings, problems = phase_settings(config, reference_root)
    if problems:
        for line in problems:
            print(line, file=sys.stderr)
        return 1

    program = _folder_data(PROGRAM)
    try:
        program.update(vendored_files(cache))
    except VendorError as error:
        print("build: %s" % error, file=sys.stderr)
        return 1
    nested: Dict[str, bytes] = {"scoring_program.zip": _zip_bytes({}, program)}

    phases = sorted(config["phases"].values(), key=lambda p: p["phasenumber"])
    samples: Dict[str, bytes] = {}
    first_public: Dict[str, bytes] = {}
    sample_zip = b""
    from baselines import write_submission
    ids_of_phase: Dict[str, Dict[str, List[str]]] = {}  # phase label -> track file -> public ids
    with tempfile.TemporaryDirectory() as work:
        for phase in phases:
            folder = phase_folder(phase)
            derive_public_data(os.path.join(reference_root, folder), os.path.join(work, "public", folder))
            ids_of_phase[str(phase.get("label", folder))] = public_ids(os.path.join(work, "public", folder))
        for phase in phases:
            folder = phase_folder(phase)
            gold = os.path.join(reference_root, folder)
            extra = {CONFIG_NAME: settings[folder]} if folder in settings else {}
            others = {label: ids for label, ids in ids_of_phase.items() if label != str(phase.get("label", folder))}
            if others:  # so that a prediction for another phase's inputs is named as such
                extra[OTHER_PHASES] = (json.dumps(others, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
            for track in TRACKS:  # files made from the gold (nlu: its tokens, so a run need not tokenize it)
                extra.update(track.reference_data_extras(gold))
            nested[phase["reference_data"]] = _zip_bytes(folder_entries(gold), extra)
            public = os.path.join(work, "public", folder)
            public_data = _folder_data(public)
            if "public_data" in phase:
                nested[phase["public_data"]] = _zip_bytes({}, public_data)
            submission = os.path.join(work, "submission", folder)
            write_submission(public, submission)
            samples[phase["reference_data"]] = _zip_bytes(folder_entries(submission), {})
            if not sample_zip:  # the starting kit's sample: made for the first (development) phase
                sample_zip = samples[phase["reference_data"]]
                first_public = {"public_data/%s/%s" % (folder, name): data for name, data in public_data.items()}
    kit = {name: _read(os.path.join(KIT, name)) for name in KIT_FILES}
    first = phases[0]
    expected = sample_scores(PROGRAM, os.path.join(reference_root, phase_folder(first)), sample_zip)
    kit["README.md"] = (fill_template(kit["README.md"].decode("utf-8"), TRACKS)
                        + generated_sections(TRACKS, expected, str(first.get("label", "")))).encode("utf-8")
    kit.update({"scoring_program/" + name: data for name, data in program.items()})
    kit.update(first_public)
    kit["sample_submission.zip"] = sample_zip
    kit_zip = _zip_bytes({}, kit)
    for phase in phases:
        if "starting_kit" in phase:
            nested[phase["starting_kit"]] = kit_zip

    files = {}
    for name in [config["image"]] + list(config["html"].values()):
        files[name] = _read(os.path.join(PAGES, name))
    files.update(nested)
    v15_text = v15_yaml_text(yaml_text)
    without_block = {key: value for key, value in config.items() if key != "codabench"}
    assert yaml.safe_load(v15_text) == without_block, "the codabench: block must be one top-level block"
    v15 = dict(files, **{"competition.yaml": v15_text.encode("utf-8")})
    v2 = yaml.safe_dump(v2_config(config), sort_keys=False, allow_unicode=True, width=100)
    codabench = dict(files, **{"competition.yaml": v2.encode("utf-8")})
    for phase in phases:
        codabench[solution_name(phase)] = samples[phase["reference_data"]]
    # Written to a staging folder, checked there, and moved to out_dir only when the check passes:
    # zips that failed their check must never wait in dist/ to be uploaded.
    os.makedirs(out_dir, exist_ok=True)
    outputs = (("competition_bundle.zip", "upload to Codalab v1.5 (codalab.lisn.upsaclay.fr and other v1.5 sites)"),
               ("codabench_bundle.zip", "upload to Codabench (codabench.org): a native version-2 bundle"),
               ("starting_kit.zip", "for participants (also inside both bundles)"))
    for name, _ in outputs:
        if os.path.exists(os.path.join(out_dir, name)):
            os.remove(os.path.join(out_dir, name))  # a stale zip of an earlier build is no answer either
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=".staging-") as staging:
        v15_path = os.path.join(staging, "competition_bundle.zip")
        codabench_path = os.path.join(staging, "codabench_bundle.zip")
        # competition.yaml must be the first entry that contains ".yaml" (v1.5 takes the first one)
        write_zip(v15_path, {}, v15.items(), first=("competition.yaml",))
        write_zip(codabench_path, {}, codabench.items(), first=("competition.yaml",))
        with open(os.path.join(staging, "starting_kit.zip"), "wb") as handle:
            handle.write(kit_zip)
        for line in date_lines(config):
            print("dates: " + line)
        for line in ignored_keys(config):
            print("note: " + line)
        if check:
            report = Report()
            check_bundles(v15_path, codabench_path, samples, broken_submission(), python, report)
            for line in report.lines:
                print("check: ok: " + line)
            for line in report.problems:
                print("check: FAILED: " + line, file=sys.stderr)
            if report.problems:
                print("build: the check failed (%d problem%s above; the first: %s); no zip was written to %s: "
                      "fix the reference data, competition.yaml or phase_settings/ as the lines above say, "
                      "then build again" % (len(report.problems), "" if len(report.problems) == 1 else "s",
                                            report.problems[0].split("\n")[0], out_dir), file=sys.stderr)
                return 1
        for name, where in outputs:
            path = os.path.join(out_dir, name)
            os.replace(os.path.join(staging, name), path)
            digest = hashlib.sha256(_read(path)).hexdigest()
            print("wrote %s (%d bytes, sha256 %s): %s" % (path, os.path.getsize(path), digest, where))
    if check:
        print("check: " + report.summary())
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-data", default=os.path.join(ROOT, "reference_data"),
                        help="one folder per phase (default: the sample gold in reference_data/)")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "wheels"),
                        help="where downloaded wheels are kept")
    parser.add_argument("--no-check", action="store_true", help="build only")
    parser.add_argument("--python", default=shutil.which("python3") or sys.executable,
                        help="the interpreter the check runs the scoring program with (as -I -S)")
    args = parser.parse_args(argv)
    return build(os.path.abspath(args.reference_data), os.path.abspath(args.out), args.cache,
                 not args.no_check, [args.python, "-I", "-S"])


if __name__ == "__main__":
    sys.exit(main())
