"""Writing a release into its folder: everything staged beside it and moved in at once, an earlier
release replaced, anything else in the folder refused before a byte is written."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from typing import Dict, List, Optional, Sequence

from bundle.competition import competition_tracks, load_yaml, sorted_phases
from bundle.gold import stage_reference_data
from bundle.links import tree_problems
from bundle.paths import PHASE_SETTINGS, PROGRAM, ROOT
from bundle.public_data import derive_public_data
from bundle.vendor import VendorError, vendored_files
from bundle.wheel import PACKAGE, scorer_wheel
from bundle.zips import folder_data, is_junk
from scorer import __version__
from scorer.tracks.registry import TRACKS

from .checksums import SUMS, checksums, verify
from .citation import citation_cff, release_metadata, zenodo_json
from .errors import ReleaseError
from .phases import chosen_gold, phases_of
from .predictions import write_predictions
from .readme import readme


def _copy_tree(source: str, target: str, problem_prefix: str) -> None:
    """Regular files and folders of ``source`` (junk left out), in sorted order; the caller has
    refused links out of the tree and what is not a regular file (``bundle.links.tree_problems``)."""
    for name in sorted(os.listdir(source)):
        if is_junk(name):
            continue
        path = os.path.join(source, name)
        if os.path.isdir(path):
            _copy_tree(path, os.path.join(target, name), problem_prefix)
        elif os.path.isfile(path):
            os.makedirs(target, exist_ok=True)
            shutil.copyfile(path, os.path.join(target, name))
        else:
            raise ReleaseError("%s %s: is not a regular file or a folder" % (problem_prefix, path))


def check_results(folder: str) -> None:
    """rank_submissions.py's output, scored by this version of the scorer (its CSV signatures)."""
    if not os.path.isdir(folder):
        raise ReleaseError("--results %s: no such folder (rank_submissions.py's --out)" % folder, 2)
    problems = tree_problems(folder, "--results %s" % folder)
    if problems:
        raise ReleaseError(problems[0] + (" (and %d more)" % (len(problems) - 1) if len(problems) > 1 else ""), 2)
    csvs = sorted(name for name in os.listdir(folder) if name.endswith(".csv"))
    if not csvs or not os.path.isfile(os.path.join(folder, "results.md")):
        raise ReleaseError("--results %s: not an output folder of rank_submissions.py (no results.md and "
                           "CSV tables)" % folder, 2)
    for name in csvs:
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            first = handle.readline()
        if not first.startswith("# signature:"):
            raise ReleaseError("--results %s: its first line is not rank_submissions.py's '# signature:'"
                               % os.path.join(folder, name))
        versions = sorted({part.split(";")[0].strip() for part in first.split("|")
                           if part.startswith("v") and part[1:2].isdigit()})
        if versions != ["v" + __version__]:
            raise ReleaseError("--results %s: scored by scorer %s, this release's scorer is v%s; run "
                               "rank_submissions.py again with this scoring program"
                               % (os.path.join(folder, name),
                                  ", ".join(v for v in versions if v != "v" + __version__) or "(no version)",
                                  __version__))


def write_release(out: str, reference_root: str, results: Optional[str], gold_names: Sequence[str],
                  cache: str, download: Optional[str] = None) -> List[str]:
    """Write the release into ``out`` (replacing an earlier release there); return the lines to print.
    ``download``: the download the tables in ``results`` were made from: each ranked row's
    prediction files go in ``predictions/`` (``predictions.write_predictions``)."""
    _, config, problem = load_yaml(os.path.join(ROOT, "competition.yaml"))
    if problem:
        raise ReleaseError(problem)
    phases = phases_of(config)
    gold = chosen_gold(phases, gold_names)
    if results is not None:
        check_results(results)
    elif download is not None:
        raise ReleaseError("--download %s: give --results too (the tables name the ranked rows whose predictions "
                           "are released)" % download, 2)
    meta = release_metadata()
    tracks = competition_tracks(config, TRACKS)
    for phase in phases:
        if not os.path.isdir(os.path.join(reference_root, phase.folder)):
            raise ReleaseError("--reference-data %s: no folder %s for phase %s"
                               % (reference_root, phase.folder, phase.named), 2)
    check_out(out)
    problems = tree_problems(reference_root, "--reference-data %s" % reference_root)
    if problems:
        raise ReleaseError(problems[0] + (" (and %d more)" % (len(problems) - 1) if len(problems) > 1 else ""), 2)
    program = folder_data(PROGRAM)
    try:
        program.update(vendored_files(cache))
    except VendorError as error:
        raise ReleaseError("release: %s" % error) from None
    wheel_name, wheel_bytes = scorer_wheel(program, config)
    parent = os.path.dirname(os.path.abspath(out))
    try:
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".release-", dir=parent)
    except OSError as error:
        raise ReleaseError("--out %s: cannot be made (%s)" % (out, error.strerror or error), 2) from None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(staging, 0o777 & ~umask)  # as a folder made by mkdir (mkdtemp makes it 0700)
    old = ""
    try:
        staged_ref = os.path.join(staging, ".reference")
        stage_reference_data(reference_root, sorted_phases(config), tracks, staged_ref)
        _write(staging, "scorer/" + wheel_name, wheel_bytes)
        for track in tracks:
            with open(track.card_path, "rb") as handle:
                _write(staging, "cards/%s.md" % track.name, handle.read())
        settings: Dict[str, str] = {}
        for phase in phases:
            source = os.path.join(PHASE_SETTINGS, "%s.json" % phase.folder)
            if os.path.isfile(source):
                with open(source, "rb") as handle:
                    _write(staging, "settings/%s.json" % phase.folder, handle.read())
                settings[phase.folder] = source
            derive_public_data(os.path.join(staged_ref, phase.folder),
                               os.path.join(staging, "public_data", phase.folder), tracks)
        for phase in gold:
            _copy_tree(os.path.join(staged_ref, phase.folder), os.path.join(staging, "gold", phase.folder),
                       "--reference-data")
        shutil.rmtree(staged_ref)
        if results is not None:
            _copy_tree(results, os.path.join(staging, "results"), "--results")
        test = phases[-1]
        rows = 0 if download is None else write_predictions(
            staging, download, results, tracks, "gold/%s" % test.folder if test in gold else "",
            "settings/%s.json" % test.folder if test.folder in settings else "")
        _write(staging, "README.md", readme(config, phases, gold, tracks, wheel_name, settings,
                                            results is not None, rows).encode("utf-8"))
        _write(staging, "CITATION.cff", citation_cff(config, meta, wheel_name).encode("utf-8"))
        _write(staging, ".zenodo.json", zenodo_json(config, meta, wheel_name).encode("utf-8"))
        sums = checksums(staging).encode("utf-8")
        _write(staging, SUMS, sums)
        if os.path.isdir(out):  # an earlier release (check_out): moved aside, then removed
            old = tempfile.mkdtemp(prefix=".release-old-", dir=parent)
            os.replace(out, os.path.join(old, "release"))
        os.replace(staging, out)
    finally:
        if os.path.isdir(staging):
            shutil.rmtree(staging)
        if old:
            shutil.rmtree(old)
    lines = ["wrote %s: scorer %s, %d cards, public data of %s, gold of %s, %s" % (
        out, wheel_name, len(tracks), ", ".join(p.folder for p in phases),
        ", ".join(p.folder for p in gold) or "no phase (--gold PHASE adds one)",
        "the final tables" if results is not None else "no final tables (--results DIR adds them)")
        + (", the predictions of its %d ranked rows" % rows if rows else "")]
    digest = hashlib.sha256(sums).hexdigest()
    lines.append("%s: sha256 %s (check with: cd %s && sha256sum -c %s)" % (os.path.join(out, SUMS), digest, out, SUMS))
    if meta["authors"][0]["name"].startswith("The organisers"):
        lines.append("note: release.yaml still names the authors as 'The organisers...': name them before "
                     "depositing the release")
    return lines


RELEASE_FILES = ("README.md", "CITATION.cff", ".zenodo.json")


def check_out(out: str) -> None:
    """--out is a new folder, an empty one, or an earlier release and nothing else: a folder whose
    every file is listed in its SHA256SUMS with that digest, which lists this tool's own files
    (README.md, CITATION.cff, .zenodo.json, the scorer's wheel); anything else is refused in one
    line, before a byte is written (a folder that merely holds a file named SHA256SUMS is someone's)."""
    if os.path.islink(out):
        raise ReleaseError("--out %s: is a symbolic link; give the folder itself (a new one, or an earlier "
                           "release)" % out, 2)
    if not os.path.lexists(out):
        return
    if not os.path.isdir(out):
        raise ReleaseError("--out %s: is a file, not a folder; give a new folder (or an earlier release to "
                           "replace)" % out, 2)
    try:
        names = os.listdir(out)
    except OSError as error:
        raise ReleaseError("--out %s: cannot be read (%s)" % (out, error.strerror or error), 2) from None
    if not names:
        return
    refused = ("--out %s: a folder that holds something other than an earlier release of this tool (%%s); "
               "nothing was changed: choose an empty or new folder" % out)
    problems = tree_problems(out, "--out")
    if any(os.path.islink(os.path.join(root, name)) for root, dirs, files in os.walk(out) for name in dirs + files):
        problems.append("a symbolic link")
    if problems:
        raise ReleaseError(refused % problems[0].replace("--out: ", ""), 2)
    problems = verify(out)
    if problems:
        raise ReleaseError(refused % problems[0], 2)
    with open(os.path.join(out, SUMS), encoding="utf-8") as handle:
        listed = {line[66:].rstrip("\n") for line in handle}
    ours = all(name in listed for name in RELEASE_FILES) and any(
        name.startswith("scorer/%s-" % PACKAGE) and name.endswith(".whl") for name in listed)
    if not ours:
        raise ReleaseError(refused % ("its %s does not list a release's files: %s and the scorer's wheel"
                                      % (SUMS, ", ".join(RELEASE_FILES))), 2)


def _write(root: str, relative: str, data: bytes) -> None:
    path = os.path.join(root, *relative.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
