"""The installable scorer: a wheel of the scoring program, written with ``zipfile`` (no setuptools,
no network), byte-identical for the same sources.

    shared_task_scorer/__init__.py      puts program/ first on sys.path, as score.py puts its own
                                      folder: the same ``scorer`` package, imported the same way
    shared_task_scorer/__main__.py      python -m shared_task_scorer
    shared_task_scorer/program/         the scoring program as the upload ships it (scorer/ with the
                                      track modules and cards, the vendored nltk pieces, the Punkt
                                      model, scoring_config.json, POLICY.md), without score.py and
                                      Codalab's metadata
    shared_task_scorer-<v>.dist-info/   METADATA, WHEEL, entry_points.txt (the command), top_level.txt,
                                      RECORD (PEP 376/427: sha256 of every file)

The version is the scoring program's (``scorer/__init__.py``), which its signatures carry.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from typing import Any, Dict, List, Tuple

from scorer.run.cli import DEFAULT_NAME as COMMAND  # the command's name, said once
from scorer.tracks.registry import TRACKS

from .zips import FIXED_TIME

DISTRIBUTION = "shared-task-scorer"
PACKAGE = "shared_task_scorer"
REQUIRES_PYTHON = ">=3.7"
TAG = "py3-none-any"
# The Codalab contract's own files: the wheel's command replaces them.
LEFT_OUT = ("score.py", "metadata")

INIT = '''"""The competition's scorer, installed: ``score(track, gold_path, prediction_path, **settings)``, and the
command ``%(command)s TRACK GOLD PREDICTION [--json] [--settings FILE]`` (``%(command)s --help``).

The scoring program lives in ``program/`` as the competition's upload ships it; its folder goes first
on ``sys.path`` (as ``score.py`` puts its own), so the code that scored the competition runs as is.
"""

import os
import sys

PROGRAM_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "program")
if PROGRAM_DIR not in sys.path:
    sys.path.insert(0, PROGRAM_DIR)

from scorer import __version__  # noqa: E402
from scorer.run.api import ScoringError, ScoringWarning, score  # noqa: E402

__all__ = ["score", "ScoringError", "ScoringWarning", "__version__", "main"]


def main():
    """The console script ``%(command)s``."""
    from scorer.run.cli import main as run
    sys.exit(run(sys.argv[1:], "%(command)s"))
'''

MAIN = '''from %(package)s import main

main()
'''

DESCRIPTION = """# %(distribution)s %(version)s

The scoring program of the competition "%(title)s", installable: the same code and numbers as its
`score.py` on the platform, standard library only (nltk 3.7's tokenizer pieces and Punkt model vendored).

    pip install %(wheel)s
    %(command)s TRACK GOLD PREDICTION [--json] [--settings FILE]
    %(command)s --card TRACK      # what the track computes

Tracks: %(tracks)s. In Python: `from %(package)s import score; score("flc", gold, prediction)`
returns the leaderboard scores and their `signature`.
"""


def wheel_name(version: str) -> str:
    return "%s-%s-%s.whl" % (PACKAGE, version, TAG)


def _record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def wheel_files(program: Dict[str, bytes], version: str, title: str, tracks: List[str]) -> List[Tuple[str, bytes]]:
    """(archive name, content) of every file of the wheel, in the archive's order (RECORD last).

    ``program``: the scoring program's files as the upload ships them (name -> bytes, vendored
    nltk included)."""
    values = {"command": COMMAND, "package": PACKAGE, "distribution": DISTRIBUTION, "version": version,
              "title": title, "wheel": wheel_name(version), "tracks": ", ".join(tracks)}
    files = {PACKAGE + "/__init__.py": (INIT % values).encode("utf-8"),
             PACKAGE + "/__main__.py": (MAIN % values).encode("utf-8")}
    for name, data in program.items():
        if name not in LEFT_OUT:
            files["%s/program/%s" % (PACKAGE, name)] = data
    info = "%s-%s.dist-info/" % (PACKAGE, version)
    metadata = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: %s\n"
                "Classifier: Programming Language :: Python :: 3\n"
                "Description-Content-Type: text/markdown\n\n%s"
                % (DISTRIBUTION, version, "The scorer of the competition: " + title, REQUIRES_PYTHON,
                   DESCRIPTION % values))
    meta = {
        info + "METADATA": metadata.encode("utf-8"),
        info + "WHEEL": ("Wheel-Version: 1.0\nGenerator: build_bundle.py (bundle/wheel.py)\n"
                         "Root-Is-Purelib: true\nTag: %s\n" % TAG).encode("utf-8"),
        info + "entry_points.txt": ("[console_scripts]\n%s = %s:main\n" % (COMMAND, PACKAGE)).encode("utf-8"),
        info + "top_level.txt": (PACKAGE + "\n").encode("utf-8"),
    }
    ordered = sorted(files.items()) + sorted(meta.items())
    record = "".join("%s,%s,%d\n" % (name, _record_hash(data), len(data)) for name, data in ordered)
    record += info + "RECORD,,\n"
    return ordered + [(info + "RECORD", record.encode("utf-8"))]


def build_wheel(program: Dict[str, bytes], version: str, title: str, tracks: List[str]) -> Tuple[str, bytes]:
    """(file name, bytes) of the wheel: sorted entries, fixed timestamps and permissions, deflated
    at level 9, so that the same sources give the same bytes (with the same zlib)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in wheel_files(program, version, title, tracks):
            entry = zipfile.ZipInfo(name, FIXED_TIME)
            entry.create_system = 3
            entry.external_attr = (0o100644 & 0xFFFF) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return wheel_name(version), buffer.getvalue()


def program_version(program: Dict[str, bytes]) -> str:
    """``__version__`` of ``scorer/__init__.py`` in ``program`` (the one place it is written)."""
    import ast
    tree = ast.parse(program["scorer/__init__.py"].decode("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets):
            return str(ast.literal_eval(node.value))
    raise ValueError("scorer/__init__.py has no __version__")


def scorer_wheel(program: Dict[str, bytes], config: Dict[str, Any]) -> Tuple[str, bytes]:
    """(file name, bytes) of the installable scorer made from ``program`` (the upload's scoring
    program, vendored nltk included), versioned as its signatures are."""
    return build_wheel(program, program_version(program), str(config["title"]), [track.name for track in TRACKS])
