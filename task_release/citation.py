"""How to cite the release: ``release.yaml`` (authors, licence, keywords, repository) validated as
CITATION.cff's schema 1.2.0 and Zenodo's deposit metadata define them, and the two files written
from it and competition.yaml."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from typing import Any, Dict

import yaml

from bundle.competition import sorted_phases
from bundle.paths import ROOT
from bundle.wheel import COMMAND
from scorer import __version__

from .checksums import SUMS
from .errors import ReleaseError

RELEASE_YAML = os.path.join(ROOT, "release.yaml")
CFF_VERSION = "1.2.0"

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
