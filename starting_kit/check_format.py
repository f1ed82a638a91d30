#!/usr/bin/env python3
"""Check a submission's format before uploading it; no gold needed.

    python3 check_format.py SUBMISSION [--public public_data/dev]

It builds a stand-in "gold" from the phase's public inputs (the right ids, texts and article
lengths, no answers) and runs the scoring program on it, so every check the platform makes (file
names, ids, technique names, offsets within the texts, overlaps, CSV/JSON syntax) is made here
too. The scores it computes mean nothing and are not shown.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile

from score_locally import HERE, KitError, score_submission, verdict


def stand_in_gold(public_dir: str, gold_dir: str) -> list:
    """Write a gold with empty answers for every track whose public input is in ``public_dir``."""
    tracks = []
    os.makedirs(gold_dir, exist_ok=True)
    for name in ("semeval2021_t6_st1.json", "semeval2021_t6_st2.json", "semeval2021_t6_st3.json"):
        path = os.path.join(public_dir, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8-sig") as handle:
                records = json.load(handle)
            gold = [dict(record, labels=[]) for record in records]
            with open(os.path.join(gold_dir, name), "w", encoding="utf-8") as handle:
                json.dump(gold, handle, ensure_ascii=False)
            tracks.append(name)
    folder = os.path.join(public_dir, "nlp4if2019_flc")
    if os.path.isdir(folder):
        target = os.path.join(gold_dir, "nlp4if2019_flc")
        os.makedirs(target)
        with open(os.path.join(folder, "articles.txt"), encoding="utf-8") as handle:
            for article in (line.strip() for line in handle):
                if article:
                    open(os.path.join(target, "article%s.task-FLC.labels" % article), "w").close()
                    text = os.path.join(folder, "article%s.txt" % article)
                    if os.path.isfile(text):
                        with open(text, "rb") as source, open(os.path.join(target, "article%s.txt" % article), "wb") as out:
                            out.write(source.read())
        tracks.append("nlp4if2019_flc.tsv")
    test_input = os.path.join(public_dir, "aicup2022_nlu_test.csv")
    if os.path.isfile(test_input):
        with open(test_input, encoding="utf-8-sig", newline="") as handle:
            rows = [row for row in csv.reader(handle) if row]
        with open(os.path.join(gold_dir, "aicup2022_nlu_test.csv"), "w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows(rows)
        with open(os.path.join(gold_dir, "aicup2022_nlu.csv"), "w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows((row[0], "x", "x") for row in rows[1:])
        tracks.append("aicup2022_nlu.csv")
    reviews = os.path.join(public_dir, "evalita2020_absita.ndjson")
    if os.path.isfile(reviews):
        with open(reviews, encoding="utf-8-sig") as handle, \
                open(os.path.join(gold_dir, "evalita2020_absita.ndjson"), "w", encoding="utf-8") as out:
            for line in handle:
                if line.strip():
                    record = json.loads(line)
                    out.write(json.dumps({"id_sentence": record["id_sentence"], "aspects": [],
                                          "polarities": [], "score": 3}) + "\n")
        tracks.append("evalita2020_absita.ndjson")
    return tracks


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
