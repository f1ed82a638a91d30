"""What the scoring program ships so the nlu track scores on a stock codalab-legacy image.

Only the part of nltk 3.7 the scorer loads: ``scorer/machinery/nltk_tokens.py`` imports
``nltk.tokenize.destructive`` and ``nltk.tokenize.punkt`` without running ``nltk/__init__.py``, and
they import four more nltk modules, all pure Python on the standard library (``re``, not
``regex``). The two ``__init__.py`` files come too (never run: they make ``vendor/nltk`` a regular
package, which an nltk installed on the image cannot shadow), with ``VERSION`` (checked before
anything is loaded) and the licence. The wheel comes from the package registry by exact version and
is checked against the sha256 below, so every build ships the same bytes; it is cached in
``build/wheels``. ``tests/test_bundle.py`` scores every track with nothing but this on ``sys.path``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from typing import Dict

NLTK = ("nltk", "3.7", "nltk-3.7-py3-none-any.whl",
        "ba3de02490308b248f9b94c8bc1ac0683e9aa2ec49ee78536d8667afb5e3eec8")
# What nltk_tokens loads (the two tokenizer modules and their nltk imports), under nltk/.
NLTK_FILES = ("__init__.py", "VERSION", "internals.py", "probability.py", "tokenize/__init__.py",
              "tokenize/api.py", "tokenize/destructive.py", "tokenize/punkt.py", "tokenize/util.py")


class VendorError(Exception):
    pass


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _fetch(cache: str, file_name: str, sha256: str, pip_args) -> str:
    path = os.path.join(cache, file_name)
    if not os.path.isfile(path):
        os.makedirs(cache, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--disable-pip-version-check", "-d", cache] + list(pip_args)
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True)
        if result.returncode != 0 or not os.path.isfile(path):
            raise VendorError("could not download %s from the package registry:\n%s"
                              % (file_name, result.stdout[-2000:]))
    found = _sha256(path)
    if found != sha256:
        raise VendorError("%s has sha256 %s, expected %s (delete it from %s to download it again)"
                          % (file_name, found, sha256, cache))
    return path


def vendored_files(cache: str) -> Dict[str, bytes]:
    """archive name (under ``vendor/``) -> content: the nltk 3.7 files the nlu track loads."""
    files: Dict[str, bytes] = {}
    name, version, wheel, sha256 = NLTK
    path = _fetch(cache, wheel, sha256, ["%s==%s" % (name, version)])
    with zipfile.ZipFile(path) as archive:
        for entry in NLTK_FILES:
            files["vendor/nltk/" + entry] = archive.read("nltk/" + entry)
        licence = [entry for entry in archive.namelist() if entry.endswith("dist-info/LICENSE.txt")]
        files["vendor/LICENSES/nltk-LICENSE.txt"] = archive.read(licence[0])
    files["vendor/README.md"] = (
        "Third-party code for the nlu track, added by build_bundle.py (not edited here):\n\n"
        "- nltk %s (Apache License 2.0, LICENSES/nltk-LICENSE.txt): only the files the scorer\n"
        "  loads (its two tokenizer modules and their nltk imports), unchanged: %s.\n"
        % (version, ", ".join(NLTK_FILES))).encode("utf-8")
    return files
