#!/usr/bin/env python3
"""Check a submission's format before uploading it; no gold needed.

    python3 check_format.py SUBMISSION [--public public_data/dev]

It builds a stand-in "gold" from the phase's public inputs (the right ids, texts and article
lengths, no answers) and runs the scoring program on it, so every check the platform makes (file
names, ids, technique names, offsets, overlaps, CSV/JSON syntax) is made here
too. The scores it computes mean nothing and are not shown.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from score_locally import HERE, KitError, program_tracks, score_submission, verdict


def stand_in_gold(public_dir: str, gold_dir: str) -> list:
    """Write a gold with empty answers for every track whose public input is in ``public_dir``
    (each track module of the scoring program knows how: ``write_stand_in_gold``)."""
    os.makedirs(gold_dir, exist_ok=True)
    written = []
    for track in program_tracks():
        written += track.write_stand_in_gold(public_dir, gold_dir, track.filename)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Check a submission's format against a phase's public inputs.")
    parser.add_argument("submission", help="the submission zip (or a folder with the same files)")
    parser.add_argument("--public", default=os.path.join(HERE, "public_data", "dev"),
                        help="the phase's public data (default: public_data/dev of the starting kit)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.public):
        print("check_format: no public data in %s (pass --public)" % args.public, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="check-format-") as work:
        gold = os.path.join(work, "gold")
        try:
            tracks = stand_in_gold(args.public, gold)
        except (OSError, ValueError, KeyError, TypeError) as error:
            print("check_format: the public data in %s cannot be read (%s)" % (args.public, error), file=sys.stderr)
            return 2
        try:
            metadata = metadata_file(args.submission)
            if metadata:
                print("%s: a file named metadata makes Codabench take the submission for code (a program "
                      "to run) instead of results; remove it from the zip" % metadata, file=sys.stderr)
                print(verdict(1, ""), file=sys.stderr)
                return 1
            code, stderr = score_submission(gold, args.submission, os.path.join(work, "output"), quiet=True)
        except (KitError, OSError) as error:
            print("check_format: %s" % error, file=sys.stderr)
            return 2
    if code == 0:
        print("format OK (checked against %s; files of this phase: %s)" % (args.public, ", ".join(tracks)))
    print(verdict(code, stderr), file=sys.stdout if code == 0 else sys.stderr)
    return code


def metadata_file(submission: str) -> str:
    """The path of a file named ``metadata`` at the top of the submission (or of its one wrapping
    folder), or ''."""
    import zipfile
    if os.path.isdir(submission):
        names = os.listdir(submission)
        if len(names) == 1 and os.path.isdir(os.path.join(submission, names[0])):
            return metadata_file(os.path.join(submission, names[0]))
        return os.path.join(submission, "metadata") if "metadata" in names else ""
    try:
        with zipfile.ZipFile(submission) as archive:
            names = [name.rstrip("/") for name in archive.namelist()]
    except (zipfile.BadZipFile, OSError, ValueError):
        return ""  # (score_submission names the problem)
    tops = {name.split("/")[0] for name in names if not name.startswith("__MACOSX")}
    prefix = (tops.pop() + "/") if len(tops) == 1 and any("/" in name for name in names) else ""
    return "%s:%smetadata" % (submission, prefix) if prefix + "metadata" in names else ""


if __name__ == "__main__":
    sys.exit(main())
