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
from typing import Dict, List, Tuple

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
sys.path.insert(0, os.path.join(ROOT, "starting_kit"))

import yaml  # noqa: E402

from bundle.checker import Report, check_bundles  # noqa: E402
from bundle.platforms import date_lines, ignored_keys, solution_name, v15_yaml_text, v2_config  # noqa: E402
from bundle.public_data import derive_public_data  # noqa: E402
from bundle.rules import phase_folder, validate  # noqa: E402
from bundle.vendor import VendorError, vendored_files  # noqa: E402
from bundle.zips import folder_entries, write_zip  # noqa: E402
from scorer.options import CONFIG_NAME, load_options  # noqa: E402
from scorer.problems import ReferenceDataError  # noqa: E402
from scorer.registry import LOWER_IS_BETTER, TRACKS  # noqa: E402

PAGES = os.path.join(ROOT, "pages")
PHASE_SETTINGS = os.path.join(ROOT, "phase_settings")
PROGRAM = os.path.join(ROOT, "scoring_program")
KIT = os.path.join(ROOT, "starting_kit")
KIT_FILES = ("README.md", "baselines.py", "techniques.py", "score_locally.py", "check_format.py")


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
    """A submission every phase must refuse: an ST1 file with an unknown id and technique."""
    content = json.dumps([{"id": "no-such-meme", "labels": ["Loaded Langauge"]}]).encode("utf-8")
    return _zip_bytes({}, {"semeval2021_t6_st1.json": content})


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


def build(reference_root: str, out_dir: str, cache: str, check: bool, python: List[str]) -> int:
    with open(os.path.join(ROOT, "competition.yaml"), encoding="utf-8") as handle:
        yaml_text = handle.read()
    config = yaml.safe_load(yaml_text)
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
    with tempfile.TemporaryDirectory() as work:
        for phase in phases:
            folder = phase_folder(phase)
            gold = os.path.join(reference_root, folder)
            extra = {CONFIG_NAME: settings[folder]} if folder in settings else {}
            nested[phase["reference_data"]] = _zip_bytes(folder_entries(gold), extra)
            public = os.path.join(work, "public", folder)
            derive_public_data(gold, public)
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
    os.makedirs(out_dir, exist_ok=True)
    v15_path = os.path.join(out_dir, "competition_bundle.zip")
    codabench_path = os.path.join(out_dir, "codabench_bundle.zip")
    # competition.yaml must be the first entry that contains ".yaml" (v1.5 takes the first one)
    write_zip(v15_path, {}, v15.items(), first=("competition.yaml",))
    write_zip(codabench_path, {}, codabench.items(), first=("competition.yaml",))
    with open(os.path.join(out_dir, "starting_kit.zip"), "wb") as handle:
        handle.write(kit_zip)
    for path, where in ((v15_path, "upload to Codalab v1.5 (codalab.lisn.upsaclay.fr and other v1.5 sites)"),
                        (codabench_path, "upload to Codabench (codabench.org): a native version-2 bundle")):
        digest = hashlib.sha256(_read(path)).hexdigest()
        print("wrote %s (%d bytes, sha256 %s): %s" % (path, os.path.getsize(path), digest, where))
    print("wrote %s (also inside both bundles)" % os.path.join(out_dir, "starting_kit.zip"))
    for line in date_lines(config):
        print("dates: " + line)
    for line in ignored_keys(config):
        print("note: " + line)
    if not check:
        return 0
    report = Report()
    check_bundles(v15_path, codabench_path, samples, broken_submission(), python, report)
    for line in report.lines:
        print("check: ok: " + line)
    for line in report.problems:
        print("check: FAILED: " + line, file=sys.stderr)
    if report.problems:
        return 1
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
