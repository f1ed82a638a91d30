"""nlu's public side (the bundle build, the starting kit): the released test input as the phase's
public input, the stand-in gold of ``check_format.py`` and the organisers' raw baseline."""

from __future__ import annotations

import io
import os
from typing import List, Optional

from .layout import gold_layout_problem
from .names import FILE_NAME, PUBLIC_INPUT, TEST_INPUT


def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    """The released test input (id,q,r,s), as it is in the reference data, named ``PUBLIC_INPUT``."""
    import shutil
    source = os.path.join(gold_dir, TEST_INPUT)
    if not os.path.isfile(source):
        return []
    os.makedirs(public_dir, exist_ok=True)
    shutil.copyfile(source, os.path.join(public_dir, PUBLIC_INPUT))
    return [PUBLIC_INPUT]


def reference_data_problem(folder: str) -> str:
    """What the build says when a phase's reference data lacks the test input ("" when it is there):
    the nlu track's public input is the released test input (id,q,r,s); without it beside the gold
    there is no public nlu input, so no sample submission, baseline or kit check for nlu."""
    if os.path.isfile(os.path.join(folder, FILE_NAME)) and not os.path.isfile(os.path.join(folder, TEST_INPUT)):
        return ("%s has %s but not %s: add the task's released test input (id,q,r,s) there; the public "
                "data, the sample submission and the starting kit's format check of nlu files are made "
                "from it" % (folder, FILE_NAME, TEST_INPUT))
    return ""


def _test_rows(public_dir: str) -> Optional[List[List[str]]]:
    import csv
    path = os.path.join(public_dir, PUBLIC_INPUT)
    if not os.path.isfile(path):
        path = os.path.join(public_dir, TEST_INPUT)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return [row for row in csv.reader(handle) if row]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    rows = _test_rows(public_dir)
    return None if rows is None else [row[0].strip() for row in rows[1:] if row[0].strip()]


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    """The test input, and a gold with one placeholder answer per id."""
    import csv
    rows = _test_rows(public_dir)
    if rows is None:
        return []
    os.makedirs(gold_dir, exist_ok=True)
    with open(os.path.join(gold_dir, TEST_INPUT), "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    with open(os.path.join(gold_dir, filename), "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows((row[0], "x", "x") for row in rows[1:])
    return [filename]


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """The organisers' raw baseline: the whole q and r as the explanation."""
    import csv
    from ...machinery.public_input import write_text
    rows = _test_rows(public_dir)
    if rows is None:
        return []
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("id", "q", "r"))
    writer.writerows((row[0], row[1], row[2]) for row in rows[1:])
    write_text(os.path.join(out_dir, filename), buffer.getvalue())
    return [filename]


def is_public_input(folder: str) -> bool:
    """Whether ``folder`` holds the nlu public input as its gold (the test input, id,q,r,s, named
    as the gold), which a gold never is."""
    path = os.path.join(folder, FILE_NAME)
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as handle:
        text = handle.read(1 << 16).decode("utf-8", "replace").lstrip("\ufeff")
    return bool(gold_layout_problem(text)) and "test input" in gold_layout_problem(text)

