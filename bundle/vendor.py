"""What the scoring program ships so the nlu track scores on a stock codalab-legacy image.

nltk 3.7 (pure Python) and regex, whose compiled ``_regex`` module differs per CPython ABI: one
``_regex.cpython-3XY-x86_64-linux-gnu.so`` per version from 3.7 to 3.12 sits side by side in one
``regex/`` folder, and each interpreter imports the one with its own tag. The wheels come from the
package registry by exact version and are checked against the sha256 below, so every build ships
the same bytes. They are cached in ``build/wheels``.
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
REGEX_VERSION = "2024.4.16"
REGEX_PLATFORM = "manylinux2014_x86_64"
REGEX_WHEELS = {  # python version -> (wheel file, sha256)
    "3.7": ("regex-2024.4.16-cp37-cp37m-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            "2c72608e70f053643437bd2be0608f7f1c46d4022e4104d76826f0839199347a"),
    "3.8": ("regex-2024.4.16-cp38-cp38-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            "9df1bfef97db938469ef0a7354b2d591a2d438bc497b2c489471bec0e6baf7c4"),
    "3.9": ("regex-2024.4.16-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            "98c1165f3809ce7774f05cb74e5408cd3aa93ee8573ae959a97a53db3ca3180d"),
    "3.10": ("regex-2024.4.16-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
             "c4ed75ea6892a56896d78f11006161eea52c45a14994794bcfa1654430984b22"),
    "3.11": ("regex-2024.4.16-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
             "0c8290b44d8b0af4e77048646c10c6e3aa583c1ca67f3b5ffb6e06cf0c6f0f89"),
    "3.12": ("regex-2024.4.16-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
             "08dea89f859c3df48a440dbdcd7b7155bc675f2fa2ec8c521d02dc69e877db70"),
}


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
    """archive name (under ``vendor/``) -> content, for nltk 3.7 and regex for CPython 3.7-3.12."""
    files: Dict[str, bytes] = {}
    name, version, wheel, sha256 = NLTK
    path = _fetch(cache, wheel, sha256, ["%s==%s" % (name, version)])
    with zipfile.ZipFile(path) as archive:
        for entry in archive.namelist():
            if entry.startswith("nltk/") and not entry.startswith("nltk/test/") and not entry.endswith("/"):
                files["vendor/" + entry] = archive.read(entry)
            elif entry.endswith("dist-info/LICENSE.txt"):
                files["vendor/LICENSES/nltk-LICENSE.txt"] = archive.read(entry)
    for python, (wheel, sha256) in sorted(REGEX_WHEELS.items()):
        path = _fetch(cache, wheel, sha256, [
            "--only-binary=:all:", "--platform", REGEX_PLATFORM, "--python-version", python,
            "--implementation", "cp", "regex==%s" % REGEX_VERSION])
        with zipfile.ZipFile(path) as archive:
            for entry in archive.namelist():
                if entry.startswith("regex/") and entry.endswith(".so"):
                    files["vendor/" + entry] = archive.read(entry)
                elif entry.startswith("regex/") and entry.endswith(".py") and "test_" not in entry:
                    files["vendor/" + entry] = archive.read(entry)  # identical in every wheel
                elif entry.endswith("dist-info/LICENSE.txt"):
                    files["vendor/LICENSES/regex-LICENSE.txt"] = archive.read(entry)
    files["vendor/README.md"] = (
        "Third-party code for the nlu track, added by build_bundle.py (not edited here):\n\n"
        "- nltk %s (Apache License 2.0, LICENSES/nltk-LICENSE.txt)\n"
        "- regex %s (Apache License 2.0, LICENSES/regex-LICENSE.txt), with one compiled\n"
        "  `_regex` module per CPython version %s for %s.\n"
        % (version, REGEX_VERSION, ", ".join(sorted(REGEX_WHEELS, key=lambda v: tuple(map(int, v.split("."))))),
           REGEX_PLATFORM)).encode("utf-8")
    return files
