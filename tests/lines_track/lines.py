"""Track ``lines``: a positional toy track for the test that adds tracks (tests/test_adding_a_track.py).

One output line per line of the source text, in its order (the layout of machine translation's
plain-text hypotheses: no ids, no inputs, read as sacreBLEU reads them: LF only, a BOM kept);
``lines_exact`` is the share of lines equal to their reference. Files: ``lines_source.txt`` (the
public input, ``TEST_INPUT``) and ``lines_reference.txt`` in ``ref/``, ``hyp.txt`` in ``res/``.
Only the count ties the lines to the phase (``records.check_item_count``); the module declares
no item view and no item error (both optional). Metric card: ``lines.md`` beside this file.
"""

from __future__ import annotations

import os
import random
from typing import Any, Dict, List, Optional

from ..machinery.item_digests import digest
from ..machinery.per_item import ItemStatistics, ScalarOps
from ..readers.options import Options, other_phase_counts
from ..readers.problems import Problems, reading_reference
from ..readers.records import check_item_count, content_id
from ..readers.result import TrackResult
from ..readers.text_lines import iter_lines

NAME = "lines"
TITLE = "A positional toy track: one output line per source line"
FILE_NAME = "hyp.txt"
GOLD_NAMES = ("lines_reference.txt",)
TEST_INPUT = "lines_source.txt"
KEYS = ("lines_exact",)
LEADERBOARDS = ((NAME, "lines_exact"),)


def _lines(path: str, name: str, max_bytes: Optional[int]) -> List[str]:
    """The file's lines as sacreBLEU reads them (``open(path, encoding="utf-8", newline="\\n")``)."""
    return [line for _, line in iter_lines(path, name, max_bytes, universal_newlines=False, keep_bom=True)]


def score(gold_path: str, submission_path: str, name: str, options: Options, reference_dir: str) -> TrackResult:
    with reading_reference():
        references = _lines(gold_path, GOLD_NAMES[0], None)
    hypotheses = _lines(submission_path, name, options.max_file_bytes)
    problems = Problems(name)
    note = check_item_count(len(references), len(hypotheses), problems, "line", other_phase_counts(reference_dir, name))
    problems.raise_if_any()
    rows = [(int(hypothesis == reference), 1) for hypothesis, reference in zip(hypotheses, references)]
    statistics = ItemStatistics(NAME, ["line %d" % (i + 1) for i in range(len(rows))], ["exact", "lines"], rows, (), KEYS)
    totals = {"exact": sum(row[0] for row in rows), "lines": len(rows)}
    return TrackResult(track=NAME, title=TITLE, scores=aggregate(statistics, totals), details={"lines": len(rows)},
                       notes=[note] if note else [], statistics=statistics, item_noun="line")


def aggregate(statistics, totals, ops=ScalarOps, key: Optional[str] = None) -> Dict[str, Any]:
    return {"lines_exact": ops.divide(totals["exact"], totals["lines"], 0.0)}


def prediction_digests(submission_path: str, file_name: str, options: Options) -> Dict[str, bytes]:
    """Line number -> the digest of the line as the scorer reads it (a CR or a BOM stays part of it)."""
    lines = _lines(submission_path, file_name, options.max_file_bytes)
    return {"line %d" % (i + 1): digest(line) for i, line in enumerate(lines)}


def _read(path: str) -> List[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        return [line[:-1] if line.endswith("\n") else line for line in handle]


def _write(path: str, lines: List[str]) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(line + "\n" for line in lines)


def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    source = os.path.join(gold_dir, TEST_INPUT)
    if not os.path.isfile(source):
        return []
    _write(os.path.join(public_dir, TEST_INPUT), _read(source))
    return [TEST_INPUT]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    source = os.path.join(public_dir, TEST_INPUT)
    return [content_id(line) for line in _read(source)] if os.path.isfile(source) else None


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    source = os.path.join(public_dir, TEST_INPUT)
    if not os.path.isfile(source):
        return []
    lines = _read(source)
    _write(os.path.join(gold_dir, TEST_INPUT), lines)
    _write(os.path.join(gold_dir, GOLD_NAMES[0]), [""] * len(lines))
    return [TEST_INPUT, GOLD_NAMES[0]]


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """The source lines copied out, a random one of them upper-cased."""
    source = os.path.join(public_dir, TEST_INPUT)
    if not os.path.isfile(source):
        return []
    rng = random.Random(seed)
    _write(os.path.join(out_dir, filename), [line.upper() if rng.random() < 0.5 else line for line in _read(source)])
    return [filename]


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """Source sentences and their references, upper-cased: a count of their own per split (only the
    count tells a split's predictions from another's)."""
    from ..machinery.sample_text import sample_rng, sentence
    rng = sample_rng(seed, NAME, split)
    sources = [sentence(rng, rng.randint(3, 9)) for _ in range({"dev": 12, "test": 9}[split])]
    _write(os.path.join(folder, TEST_INPUT), sources)
    _write(os.path.join(folder, GOLD_NAMES[0]), [line.upper() for line in sources])
    return [TEST_INPUT, GOLD_NAMES[0]]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    from ..machinery.sample_text import sentence
    sources = [sentence(rng, rng.randint(3, 30)) for _ in range(2000 * scale)]
    _write(os.path.join(input_dir, "ref", TEST_INPUT), sources)
    _write(os.path.join(input_dir, "ref", GOLD_NAMES[0]), [line.upper() for line in sources])
    _write(os.path.join(input_dir, "res", FILE_NAME), [line.upper() if rng.random() < 0.5 else line for line in sources])
