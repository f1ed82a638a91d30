#!/usr/bin/env python3
"""Build the competition bundle to upload, and check it the way the platforms will use it.

    python3 build_bundle.py [--reference-data DIR] [--out dist] [--no-check]

1. validates competition.yaml against the scoring program's tracks and both platforms' rules;
2. writes dist/competition_bundle.zip (competition.yaml, pages, logo, and the nested zips:
   scoring program with the nltk files it loads vendored, reference data and public data per phase, starting
   kit) and dist/starting_kit.zip, reproducibly (same sources, same bytes);
3. checks the bundle: unpacks it as Codalab v1.5 and Codabench do and runs every phase's sample
   submission and a broken one in both workers' layouts.

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
from typing import Dict, List

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))
sys.path.insert(0, os.path.join(ROOT, "starting_kit"))

import yaml  # noqa: E402

from bundle.checker import Report, check_bundle  # noqa: E402
from bundle.public_data import derive_public_data  # noqa: E402
from bundle.rules import phase_folder, validate  # noqa: E402
from bundle.vendor import VendorError, vendored_files  # noqa: E402
from bundle.zips import folder_entries, write_zip  # noqa: E402
from scorer.registry import LOWER_IS_BETTER, TRACKS  # noqa: E402

PAGES = os.path.join(ROOT, "pages")
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


def build(reference_root: str, out_dir: str, cache: str, check: bool, python: List[str]) -> int:
    with open(os.path.join(ROOT, "competition.yaml"), encoding="utf-8") as handle:
        yaml_text = handle.read()
    config = yaml.safe_load(yaml_text)
    problems = validate(config, PAGES, reference_root, TRACKS, LOWER_IS_BETTER)
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
            nested[phase["reference_data"]] = _zip_bytes(folder_entries(gold), {})
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

    outer = {"competition.yaml": yaml_text.encode("utf-8")}
    for name in [config["image"]] + list(config["html"].values()):
        outer[name] = _read(os.path.join(PAGES, name))
    outer.update(nested)
    os.makedirs(out_dir, exist_ok=True)
    bundle_path = os.path.join(out_dir, "competition_bundle.zip")
    # competition.yaml must be the first entry that contains ".yaml" (v1.5 takes the first one)
    write_zip(bundle_path, {}, outer.items(), first=("competition.yaml",))
    with open(os.path.join(out_dir, "starting_kit.zip"), "wb") as handle:
        handle.write(kit_zip)
    digest = hashlib.sha256(_read(bundle_path)).hexdigest()
    print("wrote %s (%d bytes, sha256 %s)" % (bundle_path, os.path.getsize(bundle_path), digest))
    print("wrote %s" % os.path.join(out_dir, "starting_kit.zip"))
    if not check:
        return 0
    report = Report()
    check_bundle(bundle_path, samples, broken_submission(), python, report)
    for line in report.lines:
        print("check: ok: " + line)
    for line in report.problems:
        print("check: FAILED: " + line, file=sys.stderr)
    if report.problems:
        return 1
    print("check: the bundle passes (v1.5 and Codabench emulations)")
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
