"""Track ``chrf``: machine translation scored by corpus-level chrF2, as sacreBLEU 2 scores it; an
example of a real track that tests/test_adding_a_track.py adds to a copy (not in the competition).

One translation per line of the source text, in its order (no ids, no inputs): the hypotheses are
compared line by line with one reference each, by character n-grams of orders 1 to 6 with the
whitespace removed (sacreBLEU's defaults: ``-m chrf``, char order 6, word order 0, beta 2, no
lower-casing). Each line's n-gram counts (hypothesis, reference, matched, per order) are its row of
statistics; the corpus score is computed from their sums. Files: ``chrf_source.txt`` (the public
input, ``TEST_INPUT``) and ``chrf_reference.txt`` in ``ref/``, ``chrf_hypotheses.txt`` in ``res/``,
read as sacreBLEU reads them (UTF-8, lines end at LF only, a BOM is a character of the first line).
Metric card: ``chrf.md`` beside this file.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any, Dict, List, Optional

from ..machinery.item_digests import digest
from ..machinery.per_item import ItemStatistics, ScalarOps
from ..readers.options import Options, other_phase_counts
from ..readers.problems import Problems, ReferenceDataError, reading_reference
from ..readers.records import check_item_count, content_id
from ..readers.result import ItemView, TrackResult
from ..readers.text_lines import iter_lines

NAME = "chrf"
TITLE = "Machine translation: corpus-level chrF2 (sacreBLEU)"
FILE_NAME = "chrf_hypotheses.txt"
GOLD_NAMES = ("chrf_reference.txt",)
TEST_INPUT = "chrf_source.txt"
KEYS = ("chrf2",)
LEADERBOARDS = ((NAME, "chrf2"),)
ITEM_ERROR = "1 - the line's own chrF2"

CHAR_ORDER = 6
BETA = 2
EPS = 1e-16  # sacreBLEU's precision or recall of an order without n-grams (never averaged)
COLUMNS = [side + str(n) for n in range(1, CHAR_ORDER + 1) for side in ("hyp", "ref", "match")]


def _lines(path: str, name: str, max_bytes: Optional[int]) -> List[str]:
    """The file's lines as sacreBLEU reads them (``open(path, encoding="utf-8", newline="\\n")``)."""
    return [line for _, line in iter_lines(path, name, max_bytes, universal_newlines=False, keep_bom=True)]


def _char_ngrams(line: str) -> List[Counter]:
    """The character n-grams of orders 1 to ``CHAR_ORDER`` of ``line`` without its whitespace."""
    text = "".join(line.split())
    return [Counter(text[i:i + n] for i in range(len(text) - n + 1)) for n in range(1, CHAR_ORDER + 1)]


def line_statistics(hypothesis: str, reference: str) -> tuple:
    """(hypothesis n-grams, reference n-grams, matched n-grams) per order, flat: one line's row.
    An order without reference n-grams counts none of the hypothesis's (sacreBLEU's rule)."""
    row: List[int] = []
    for hyp, ref in zip(_char_ngrams(hypothesis), _char_ngrams(reference)):
        row += [sum(hyp.values()) if ref else 0, sum(ref.values()), sum((hyp & ref).values())]
    return tuple(row)


def score(gold_path: str, submission_path: str, name: str, options: Options, reference_dir: str) -> TrackResult:
    with reading_reference():
        references = _lines(gold_path, os.path.basename(gold_path), None)
    if not references:  # (sacreBLEU stops on an empty corpus)
        raise ReferenceDataError(["reference data %s: the file has no line" % os.path.basename(gold_path)])
    hypotheses = _lines(submission_path, name, options.max_file_bytes)
    problems = Problems(name)
    note = check_item_count(len(references), len(hypotheses), problems, "line", other_phase_counts(reference_dir, name))
    problems.raise_if_any()
    rows = [line_statistics(hypothesis, reference) for hypothesis, reference in zip(hypotheses, references)]
    statistics = ItemStatistics(NAME, ["line %d" % (i + 1) for i in range(len(rows))], COLUMNS, rows, (), KEYS)
    totals = dict(zip(COLUMNS, [sum(column) for column in zip(*rows)]))  # integers: any order is exact

    def item_view(identifier: str) -> ItemView:
        index = int(identifier.split()[1]) - 1
        return ItemView(None, [], [], facts=[("reference", references[index]), ("hypothesis", hypotheses[index])])

    return TrackResult(track=NAME, title=TITLE, scores=aggregate(statistics, totals), details={"lines": len(rows)},
                       notes=[note] if note else [], statistics=statistics, item_noun="line", item_view=item_view)


def aggregate(statistics, totals, ops=ScalarOps, key: Optional[str] = None) -> Dict[str, Any]:
    """chrF from the summed counts, in sacreBLEU's steps: the precision and recall of each order
    that has n-grams on both sides, averaged over those orders, then their F-beta."""
    factor = BETA ** 2
    precision = recall = 0.0
    orders = 0
    for n in range(1, CHAR_ORDER + 1):
        hyp, ref, match = totals["hyp%d" % n], totals["ref%d" % n], totals["match%d" % n]
        counted = (hyp > 0) & (ref > 0)
        precision = precision + ops.where(counted, ops.divide(match, hyp, EPS), 0.0)
        recall = recall + ops.where(counted, ops.divide(match, ref, EPS), 0.0)
        orders = orders + ops.where(counted, 1, 0)
    precision = ops.divide(precision, orders, 0.0)
    recall = ops.divide(recall, orders, 0.0)
    return {"chrf2": ops.divide((1 + factor) * precision * recall, factor * precision + recall, 0.0)}


def item_error(totals) -> float:
    return 1.0 - aggregate(None, totals)["chrf2"]


# --- the public side ----------------------------------------------------------------------------------

def prediction_digests(submission_path: str, file_name: str, options: Options) -> Dict[str, bytes]:
    """Line number -> the digest of the hypothesis as the scorer reads it (a CR or a BOM stays part of it)."""
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
    """Each source line copied out, a word of it in three left out at random."""
    source = os.path.join(public_dir, TEST_INPUT)
    if not os.path.isfile(source):
        return []
    rng = random.Random(seed)
    _write(os.path.join(out_dir, filename),
           [" ".join(word for word in line.split() if rng.random() >= 1 / 3) for line in _read(source)])
    return [filename]


# --- sample gold and benchmark inputs -----------------------------------------------------------------

def _translation(line: str) -> str:
    """The made-up task's reference of a source line: its words in reverse order."""
    return " ".join(reversed(line.split()))


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """Source sentences and their references, a count of their own per split (only the count
    tells a split's translations from another's)."""
    from ..machinery.sample_text import sample_rng, sentence
    rng = sample_rng(seed, NAME, split)
    sources = [sentence(rng, rng.randint(3, 12)) for _ in range({"dev": 14, "test": 11}[split])]
    _write(os.path.join(folder, TEST_INPUT), sources)
    _write(os.path.join(folder, GOLD_NAMES[0]), [_translation(line) for line in sources])
    return [TEST_INPUT, GOLD_NAMES[0]]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """×1: the size of a WMT news test set (2,000 sentences)."""
    from ..machinery.sample_text import sentence
    sources = [sentence(rng, rng.randint(3, 30)) for _ in range(2000 * scale)]
    _write(os.path.join(input_dir, "ref", TEST_INPUT), sources)
    _write(os.path.join(input_dir, "ref", GOLD_NAMES[0]), [_translation(line) for line in sources])
    _write(os.path.join(input_dir, "res", FILE_NAME),
           [" ".join(word for word in line.split() if rng.random() >= 0.2) for line in sources])
