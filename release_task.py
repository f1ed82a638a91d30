#!/usr/bin/env python3
"""The task's release for a long-term archive (Zenodo), written after the competition.

    .venv/bin/python release_task.py --out DIR [--results RESULTS_DIR] [--gold PHASE ...]
        [--reference-data DIR] [--cache build/wheels]
    .venv/bin/python release_task.py --verify DIR

DIR receives, byte-identical for the same inputs:

    README.md              what is in it, and how to score on the test set in two commands
    CITATION.cff           Citation File Format 1.2.0 (title, abstract, date from competition.yaml;
                           authors, licence, keywords from release.yaml)
    .zenodo.json           Zenodo's deposit metadata, from the same fields
    SHA256SUMS             sha256 of every other file (``sha256sum -c SHA256SUMS``, or --verify)
    scorer/<wheel>         the installable scorer: the same wheel as build_bundle.py writes
    cards/<track>.md       each track's metric card: what it computes, its refusals, its citation
    settings/<folder>.json each phase's scoring settings (phase_settings/), for --settings
    public_data/<folder>/  each phase's public inputs (derived from the gold, as the build does)
    gold/<folder>/         the gold of the phases named by --gold only (its licence is the
                           organisers' decision: none by default)
    results/               the final tables: rank_submissions.py's --out folder, as written (its
                           signatures must name this scorer's version)

The phases, their folders and labels come from competition.yaml (``reference_data:
<folder>_reference_data.zip``); the test set is the last phase's folder. ``--gold`` takes a
phase's label or folder and may be repeated. An earlier release in DIR is replaced; any other
non-empty DIR is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import unicodedata
from typing import Any, Dict, List, Optional, Sequence

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)

import yaml  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scoring_program"))

from bundle.competition import competition_tracks, load_yaml, phase_folder, sorted_phases  # noqa: E402
from bundle.gold import stage_reference_data  # noqa: E402
from bundle.links import tree_problems  # noqa: E402
from bundle.paths import PHASE_SETTINGS, PROGRAM  # noqa: E402
from bundle.public_data import derive_public_data  # noqa: E402
from bundle.vendor import VendorError, vendored_files  # noqa: E402
from bundle.wheel import COMMAND, PACKAGE, scorer_wheel  # noqa: E402
from bundle.zips import folder_data, is_junk  # noqa: E402
from scorer import __version__  # noqa: E402
from scorer.tracks.registry import TRACKS  # noqa: E402

RELEASE_YAML = os.path.join(ROOT, "release.yaml")
SUMS = "SHA256SUMS"
CFF_VERSION = "1.2.0"


class ReleaseError(Exception):
    """One line naming the place and the reason; ``code``: 2 for the arguments, 1 otherwise."""

    def __init__(self, line: str, code: int = 1) -> None:
        super().__init__(line)
        self.code = code


# --- what the release says ------------------------------------------------------------------

class Phase:
    """The phases that share one reference folder (e.g. Evaluation and Post-Evaluation)."""

    def __init__(self, folder: str, labels: List[str]) -> None:
        self.folder, self.labels = folder, labels

    @property
    def named(self) -> str:
        return " / ".join(self.labels)


def phases_of(config: Dict[str, Any]) -> List[Phase]:
    """One ``Phase`` per reference folder, in the order of the phases."""
    phases: List[Phase] = []
    for phase in sorted_phases(config):
        folder = phase_folder(phase)
        known = next((p for p in phases if p.folder == folder), None)
        if known is None:
            phases.append(Phase(folder, [str(phase["label"])]))
        else:
            known.labels.append(str(phase["label"]))
    return phases


def chosen_gold(phases: List[Phase], names: Sequence[str]) -> List[Phase]:
    """The phases of ``--gold`` (a label, case-insensitive, or a folder); one line for a name none has."""
    chosen = []
    for name in names:
        match = [p for p in phases if name == p.folder or name.lower() in (label.lower() for label in p.labels)]
        if not match:
            raise ReleaseError("--gold %s: no such phase in competition.yaml; the phases: %s" % (
                name, "; ".join("%s (folder %s)" % (p.named, p.folder) for p in phases)), 2)
        if match[0] not in chosen:
            chosen.append(match[0])
    return chosen


# CITATION.cff 1.2.0's schema: "url" and "orcid"
CFF_URL = re.compile(r"^(https|http|ftp|sftp)://.+")
CFF_ORCID = re.compile(r"^https://orcid\.org/[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X]$")
METADATA_KEYS = ("authors", "license", "keywords", "repository")
AUTHOR_KEYS = ("name", "affiliation", "orcid")


def _text_problem(value: Any, where: str) -> str:
    """Why ``value`` cannot be one line of CITATION.cff or .zenodo.json ('' when it can): a
    string, not empty, without control characters (a line break, an escape) the YAML of
    CITATION.cff refuses or a reader would not see."""
    if not isinstance(value, str):
        return "%s must be a string, not %s" % (where, "a list" if isinstance(value, list) else
                                                 "a mapping" if isinstance(value, dict) else repr(value)[:40])
    if not value.strip():
        return "%s is empty" % where
    bad = sorted({c for c in value if unicodedata.category(c) in ("Cc", "Cs") or c in "\u2028\u2029"})
    if bad:
        return "%s holds the control character%s %s; write it on one line without them" % (
            where, "s" if len(bad) > 1 else "", ", ".join("U+%04X" % ord(c) for c in bad[:5]))
    return ""


def release_metadata(path: str = RELEASE_YAML) -> Dict[str, Any]:
    """release.yaml: authors (name, optional affiliation and orcid), licence, keywords, repository,
    validated as CITATION.cff's schema (1.2.0) and Zenodo's deposit metadata define them: each a
    string (keywords a list of strings), one line, no control characters; one ReleaseError line
    naming the file and the key otherwise."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 20)
    except OSError as error:
        raise ReleaseError("%s: cannot be read (%s)" % (path, error.strerror or error)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ReleaseError("%s: line %d, byte %d (0x%02x) is not UTF-8; save the file as UTF-8"
                           % (path, line, error.start + 1, data[error.start])) from None
    try:
        values = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ReleaseError("%s: cannot be read (%s)" % (path, str(error).splitlines()[0])) from None
    except RecursionError:
        raise ReleaseError("%s: cannot be read (nested too deeply)" % path) from None
    values = {} if values is None else values
    if not isinstance(values, dict):
        raise ReleaseError("%s: expected the keys %s, found %s" % (path, ", ".join(METADATA_KEYS),
                                                                    type(values).__name__))
    unknown = sorted(str(key) for key in values if key not in METADATA_KEYS)
    if unknown:
        raise ReleaseError("%s: unknown key %s; the keys: %s" % (path, ", ".join(unknown)[:200], ", ".join(METADATA_KEYS)))
    authors = values.get("authors")
    if not isinstance(authors, list) or not authors or not all(
            isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"].strip() for a in authors):
        raise ReleaseError("%s: authors must be a list of at least one {name: ...} (optional affiliation, orcid)"
                           % path)
    problems = []
    for number, author in enumerate(authors, start=1):
        extra = sorted(str(key) for key in author if key not in AUTHOR_KEYS)
        if extra:
            problems.append("authors, entry %d: unknown key %s; the keys: %s"
                            % (number, ", ".join(extra)[:200], ", ".join(AUTHOR_KEYS)))
        for key in AUTHOR_KEYS:
            if key == "name" or author.get(key) is not None:
                problems.append(_text_problem(author.get(key), "authors, entry %d, %s" % (number, key)))
    for key in ("license", "repository"):
        if values.get(key) is not None:
            problems.append(_text_problem(values[key], key))
    for key, value, pattern, example in [("repository", values.get("repository"), CFF_URL, "https://..."),
                                         ] + [("authors, entry %d, orcid" % number, author.get("orcid"), CFF_ORCID,
                                               "https://orcid.org/0000-0002-1825-0097")
                                              for number, author in enumerate(authors, start=1)]:
        if isinstance(value, str) and not _text_problem(value, key) and not pattern.match(value):
            problems.append("%s: %s is not what CITATION.cff takes (%s)" % (key, json.dumps(value)[:80], example))
    keywords = values.get("keywords")
    if keywords is not None:
        if not isinstance(keywords, list):
            problems.append("keywords must be a list of strings (one '- keyword' per line), not %s"
                            % ("a string" if isinstance(keywords, str) else type(keywords).__name__))
        else:
            problems += [_text_problem(keyword, "keywords, entry %d" % number)
                         for number, keyword in enumerate(keywords, start=1)]
    problems = [problem for problem in problems if problem]
    if problems:
        raise ReleaseError("%s: %s%s" % (path, problems[0], " (and %d more problems)" % (len(problems) - 1)
                                         if len(problems) > 1 else ""))
    return values


def _quoted(text: str) -> str:
    return json.dumps(str(text), ensure_ascii=False)


def citation_cff(config: Dict[str, Any], meta: Dict[str, Any], wheel: str) -> str:
    """CITATION.cff (schema 1.2.0): the release as a dataset with its scorer."""
    lines = ["cff-version: %s" % CFF_VERSION,
             "message: %s" % _quoted("If you use these data, results or this scorer, please cite them as below."),
             "type: dataset",
             "title: %s" % _quoted(config["title"]),
             "version: %s" % _quoted(__version__),
             "date-released: %s" % release_date(config),
             "abstract: %s" % _quoted(" ".join(str(config.get("description", "")).split()) + " Scorer: " + wheel
                                      + " (the command %s)." % COMMAND),
             "authors:"]
    for author in meta["authors"]:
        lines.append("  - name: %s" % _quoted(author["name"].strip()))
        if author.get("affiliation"):
            lines.append("    affiliation: %s" % _quoted(author["affiliation"]))
        if author.get("orcid"):
            lines.append("    orcid: %s" % _quoted(author["orcid"]))
    if meta.get("license"):
        lines.append("license: %s" % _quoted(meta["license"]))
    if meta.get("keywords"):
        lines.append("keywords:")
        lines.extend("  - %s" % _quoted(keyword) for keyword in meta["keywords"])
    if meta.get("repository"):
        lines.append("repository-code: %s" % _quoted(meta["repository"]))
    return "\n".join(lines) + "\n"


def zenodo_json(config: Dict[str, Any], meta: Dict[str, Any], wheel: str) -> str:
    """.zenodo.json: Zenodo's deposit metadata (read when a GitHub release is archived, or sent
    with the deposit API)."""
    creators = []
    for author in meta["authors"]:
        creator = {"name": author["name"].strip()}
        for key in ("affiliation", "orcid"):
            if author.get(key):
                creator[key] = str(author[key])
        creators.append(creator)
    document = {
        "title": str(config["title"]),
        "description": " ".join(str(config.get("description", "")).split()),
        "upload_type": "dataset",
        "access_right": "open",
        "creators": creators,
        "version": __version__,
        "publication_date": release_date(config),
        "notes": "Scorer: %s (pip install it; the command %s). Checksums: %s." % (wheel, COMMAND, SUMS),
    }
    if meta.get("license"):
        document["license"] = str(meta["license"])
    if meta.get("keywords"):
        document["keywords"] = [str(keyword) for keyword in meta["keywords"]]
    if meta.get("repository"):
        document["related_identifiers"] = [{"identifier": str(meta["repository"]), "relation": "isSupplementedBy",
                                            "scheme": "url"}]
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def release_date(config: Dict[str, Any]) -> str:
    """The day the competition's results are final: competition.yaml's ``end_date`` where it has
    one, else the start of its last phase (a never-ending Post-Evaluation phase starts when the
    blind evaluation ends). A date from the yaml, never today's, so that a rerun gives the same bytes."""
    value = config.get("end_date") or sorted_phases(config)[-1]["start_date"]
    return str(value)[:10]


def readme(config: Dict[str, Any], phases: List[Phase], gold: List[Phase], tracks, wheel: str,
           settings: Dict[str, str], has_results: bool) -> str:
    test = phases[-1]
    track_rows = "\n".join("| `%s` | %s | `%s` | `cards/%s.md` |" % (t.name, t.title, t.filename, t.name)
                           for t in tracks)
    given = "gold/%s" % test.folder if test in gold else "TEST_GOLD"
    settings_part = " --settings settings/%s.json" % test.folder if test.folder in settings else ""
    where_gold = ("`gold/%s/` holds it (the track's gold under its competition name)" % test.folder
                  if test in gold else
                  "this release does not hold it (the organisers' licence decision): give its file, its "
                  "folder as the task released it, or a folder holding it, in place of `TEST_GOLD`")
    lines = [
        "# %s: the task's release" % config["title"],
        "",
        " ".join(str(config.get("description", "")).split()),
        "",
        "Version %s of the scorer; every score below carries its signature (`<track>|<settings>|v%s`)."
        % (__version__, __version__),
        "",
        "## Score on the test set (%s) in two commands" % test.named,
        "",
        "In this folder, with Python 3.7 or later (a virtual environment is best):",
        "",
        "    pip install scorer/%s" % wheel,
        "    %s TRACK %s PREDICTION%s" % (COMMAND, given, settings_part),
        "",
        "TRACK is one of the tracks below; PREDICTION is one file in the track's submission format "
        "(its card). The test gold: %s. The command prints the leaderboard scores as the platform "
        "stored them and their signature; `--json` prints one JSON object, `%s --card TRACK` the "
        "track's card. In Python: `from %s import score; score(TRACK, GOLD, PREDICTION)`. "
        "Standard library only, Python 3.7 or later, no network." % (where_gold, COMMAND, PACKAGE),
        "",
        "| track | task | submission file | card |",
        "|---|---|---|---|",
        track_rows,
        "",
        "## Contents",
        "",
        "| path | what |",
        "|---|---|",
        "| `scorer/%s` | the installable scorer: the competition's scoring program, the same code |" % wheel,
        "| `cards/` | each track's metric card: definition, format, refusals and warnings, fidelity, citation |",
        "| `settings/` | each phase's scoring settings (`--settings`; the signature names them) |",
        "| `public_data/<folder>/` | each phase's public inputs: %s |"
        % "; ".join("`%s`: %s" % (p.folder, p.named) for p in phases),
    ]
    if gold:
        lines.append("| `gold/<folder>/` | the gold of %s |" % "; ".join("`%s`: %s" % (p.folder, p.named) for p in gold))
    else:
        lines.append("| (no gold) | the organisers released no gold here |")
    if has_results:
        lines.append("| `results/` | the final tables (`rank_submissions.py`): one row per team, CIs, rank ranges, "
                     "significance groups; `results/index.html`, `results.md`, `results.tex`, CSV files |")
    lines += ["| `CITATION.cff`, `.zenodo.json` | how to cite this release; Zenodo's metadata |",
              "| `%s` | the sha256 of every file: `sha256sum -c %s` |" % (SUMS, SUMS), ""]
    return "\n".join(lines)


# --- writing it --------------------------------------------------------------------------------

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


def checksums(folder: str) -> str:
    """``SHA256SUMS``: ``<sha256>  <path>`` for every file under ``folder`` but itself, sorted."""
    lines = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in files:
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if relative == SUMS:
                continue
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                for chunk in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(chunk)
            lines.append("%s  %s\n" % (digest.hexdigest(), relative))
    return "".join(sorted(lines, key=lambda line: line[66:]))


def verify(folder: str) -> List[str]:
    """What does not match ``SHA256SUMS`` in ``folder`` (a file changed, missing, or not listed)."""
    path = os.path.join(folder, SUMS)
    if not os.path.isdir(folder):
        return ["%s: no such folder" % folder]
    unreadable = tree_problems(folder, folder)  # no pipe opened, no link followed out of it
    if unreadable:
        return unreadable
    if not os.path.isfile(path):
        return ["%s: no %s" % (folder, SUMS)]
    try:
        with open(path, encoding="utf-8") as handle:
            listed = {line[66:].rstrip("\n"): line[:64] for line in handle.read(1 << 24).splitlines(True)
                      if line.strip()}
    except (OSError, UnicodeDecodeError) as error:
        return ["%s: cannot be read (%s)" % (path, getattr(error, "strerror", None) or error.__class__.__name__)]
    problems = []
    actual = {line[66:].rstrip("\n"): line[:64] for line in checksums(folder).splitlines(True)}
    for name in sorted(set(listed) | set(actual)):
        if name not in actual:
            problems.append("%s: listed in %s, missing" % (name, SUMS))
        elif name not in listed:
            problems.append("%s: not listed in %s" % (name, SUMS))
        elif listed[name] != actual[name]:
            problems.append("%s: sha256 %s, %s says %s" % (name, actual[name], SUMS, listed[name]))
    return problems


def write_release(out: str, reference_root: str, results: Optional[str], gold_names: Sequence[str],
                  cache: str) -> List[str]:
    """Write the release into ``out`` (replacing an earlier release there); return the lines to print."""
    _, config, problem = load_yaml(os.path.join(ROOT, "competition.yaml"))
    if problem:
        raise ReleaseError(problem)
    phases = phases_of(config)
    gold = chosen_gold(phases, gold_names)
    if results is not None:
        check_results(results)
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
        _write(staging, "README.md", readme(config, phases, gold, tracks, wheel_name, settings,
                                            results is not None).encode("utf-8"))
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
        "the final tables" if results is not None else "no final tables (--results DIR adds them)")]
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


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="the release's folder (an earlier release there is replaced)")
    parser.add_argument("--verify", metavar="DIR", help="check a release against its %s" % SUMS)
    parser.add_argument("--results", help="rank_submissions.py's --out folder: the final tables")
    parser.add_argument("--gold", action="append", default=[], metavar="PHASE",
                        help="put this phase's gold in the release (a label or folder; repeatable)")
    parser.add_argument("--reference-data", default=os.path.join(ROOT, "reference_data"),
                        help="one folder per phase, as for build_bundle.py")
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "wheels"), help="where downloaded wheels are kept")
    args = parser.parse_args(argv)
    if (args.out is None) == (args.verify is None):
        print("release_task.py: give --out DIR (write a release) or --verify DIR (check one)", file=sys.stderr)
        return 2
    if args.verify is not None:
        problems = verify(args.verify)
        for line in problems:
            print(line, file=sys.stderr)
        if not problems:
            print("%s: every file matches %s" % (args.verify, SUMS))
        return 1 if problems else 0
    try:
        lines = write_release(os.path.abspath(args.out), os.path.abspath(args.reference_data),
                              os.path.abspath(args.results) if args.results else None, args.gold, args.cache)
    except ReleaseError as error:
        print(str(error), file=sys.stderr)
        return error.code
    except OSError as error:  # a full disk, a file that vanished: one line, never a traceback
        print("release_task.py: %s%s" % (error.strerror or error, ": %s" % error.filename if error.filename else ""),
              file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
