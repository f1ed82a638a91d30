"""Track ``nlu``: AI CUP 2022 explainable NLU, the q'/r' explanation spans of a (q, r) argument pair.

For each scored id i, over its accepted gold answers j (several rows per id in the gold):

    score_i = max_j [ LCS(q'_i, Q'_ij) / (|q'_i| + |Q'_ij| - LCS) + the same for r' ]

on nltk 3.7 ``word_tokenize`` tokens without 1-character punctuation (0/0 counts 0), and
``nlu_score`` = Σ score_i / (2N). ``nlu_q`` and ``nlu_r`` are the means of the two halves of the
chosen answer (the first in file order on a tie). Metric card: ``nlu.md`` beside this folder.

This file holds the declarations and ``score``; the package's modules: ``names`` (the track's
name and files), ``layout`` and ``reading`` (the CSV files), ``digests`` (the canonical
predictions), ``tokens`` (the gold's tokens), ``token_cache`` (the gold's tokens kept between runs),
``statistics`` (the per-id rows and their groups), ``item_view`` (the local error analysis),
``public_side`` (the public input, stand-in gold and baseline) and ``sample_data``.
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Tuple

from ...machinery.per_item import ItemStatistics, ScalarOps, Totals
from ...readers.options import Options, other_phase_ids
from ...readers.problems import Problems, ReferenceDataError, clip, reading_reference
from ...readers.records import check_duplicates, check_id_sets, record_limit
from ...readers.result import TrackResult
from .item_view import item_view
from .reading import parse_answers, read_test_ids
from .statistics import id_statistics, ratio
from .token_cache import gold_tokens, remember_tokenized
# Declarations made in the package's modules: the contract reads them as this module's attributes.
from .digests import prediction_digests
from .names import FILE_NAME, NAME, TEST_INPUT
from .public_side import (is_public_input, public_ids, reference_data_problem, write_baseline, write_public_input,
                          write_stand_in_gold)
from .sample_data import write_benchmark_input, write_sample_gold
from .statistics import GROUP_TABLES
from .token_cache import reference_data_extras

TITLE = "AI CUP 2022 explainable NLU: q' and r' explanation spans"
GOLD_NAMES = (FILE_NAME,)
KEYS = ("nlu_score", "nlu_q", "nlu_r")
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = ((NAME, "nlu_score"),)
RELEASED_GOLD = {"train": "Batch_answers - train_data (no-blank).csv"}  # the training layout id,q,r,s,q',r'
ITEM_ERROR = "1 − the id's score, (q' ratio + r' ratio) / 2 of its best gold answer"
BENCHMARK = {"scales": (1, 10), "oracle": "lcs", "slow": True}
# The longest answer in characters, per answer token allowed (nlu_max_answer_tokens): checked
# before anything is tokenized: 20 x 5,000 = 100,000 characters, nine times the longest real q
# (11,874 characters); the slowest answers that pass it are timed in benchmarks/RESULTS.md.
CHARACTERS_PER_TOKEN = 20


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    gold = gold_tokens(gold_path, name)
    gold_ids = gold.ids

    test_path = os.path.join(reference_dir, TEST_INPUT)
    with reading_reference():
        test_ids = read_test_ids(test_path) if os.path.isfile(test_path) else None
    if test_ids is not None and not set(test_ids).issuperset(gold_ids):
        known = set(test_ids)
        absent = [identifier for identifier in gold_ids if identifier not in known]
        raise ReferenceDataError(["reference data %s: some gold ids are not in %s" % (name, TEST_INPUT)],
                                 ["reference data %s: %d gold ids are not in %s: %s%s" % (
                                     name, len(absent), TEST_INPUT, ", ".join(absent[:10]),
                                     " (the first ten)" if len(absent) > 10 else "")])

    problems = Problems(name)
    scored_ids = set(gold_ids)
    # Without the test input, rows of other ids are ignored as they are read (not kept).
    submitted, ignored = parse_answers(submission_path, name, options.max_file_bytes, problems, gold=False,
                                       keep=scored_ids if test_ids is None else None,
                                       max_rows=None if test_ids is None else record_limit(len(test_ids)))
    check_duplicates((row.identifier for row in submitted), problems, lambda i: "line %d" % submitted[i].line)
    problems.raise_if_any()
    warnings: List[str] = []
    if test_ids is not None:
        check_id_sets(test_ids, [row.identifier for row in submitted], problems, "input ids",
                      other_phases=other_phase_ids(reference_dir, name))
    else:
        check_id_sets(gold_ids, [row.identifier for row in submitted], problems, "ids",
                      other_phases=other_phase_ids(reference_dir, name))
        if ignored:
            warnings.append("%d ids are not scored in this phase and were ignored" % ignored)  # (rows: not kept, so an id given twice counts twice)
    # Resource bounds (refusal policy, clause c), the same on every row, whether or not its id is
    # scored and whether or not the test input is in ref/: the test input mixes scored ids with
    # unscored ones, and no refusal, its order or its cost may tell them apart. First characters,
    # then the words with content (a lower bound of the tokens), before anything is tokenized;
    # then every row is tokenized (in file order) and its tokens counted, and the scored ones are
    # scored. A long answer within the caps is scored as given: it can only lower its own
    # LCS/union ratio.
    from ...machinery.nltk_tokens import words_with_content  # (the tokenizer's module: loaded when nlu is scored)
    max_characters = CHARACTERS_PER_TOKEN * options.nlu_max_answer_tokens
    # The word bound is counted only where it can trip: it counts some of the text's
    # whitespace-separated pieces, and a text of at most 2 x max tokens characters has at most max
    # tokens pieces (a piece and the whitespace after it take two characters).
    max_untripped = 2 * options.nlu_max_answer_tokens
    for row in submitted:
        for field, text in (("q'", row.q), ("r'", row.r)):
            if len(text) <= max_untripped:
                continue
            if len(text) > max_characters:
                problems.add("line %d (id %s), %s" % (row.line, clip(row.identifier), field),
                             "the answer has %d characters; at most %d are accepted"
                             % (len(text), max_characters))
                continue
            if len(text.split()) <= options.nlu_max_answer_tokens:
                continue
            words = words_with_content(text)
            if words > options.nlu_max_answer_tokens:
                problems.add("line %d (id %s), %s" % (row.line, clip(row.identifier), field),
                             "the answer has at least %d tokens (%d words that are not only "
                             "punctuation); at most %d are accepted"
                             % (words, words, options.nlu_max_answer_tokens))
    problems.raise_if_any()

    by_id = {row.identifier: row for row in submitted}
    # Imported here: listing the tracks (scorer/tracks/registry.py) must not load the tokenizer's modules.
    from ...machinery.lcs import lcs_with_masks, token_masks
    from ...machinery.nltk_tokens import shared_tokenizer
    tokenizer = shared_tokenizer()
    gold.tokenize(tokenizer.tokens)
    remember_tokenized(gold)
    gold_sequence, gold_spans, vocabulary, first_row = gold.tokens, gold.spans, gold.vocabulary, gold.first_row
    number_of = {identifier: number for number, identifier in enumerate(gold_ids)}

    best_of: Dict[int, Tuple[float, float, float, int]] = {}  # gold number -> (q + r, q, r, gold tokens)
    known_tokens, get_number = gold.known_tokens, vocabulary.get

    def token_numbers(number: Optional[int], text: str):
        """The text's tokens as the gold's token numbers (-1: a token the gold never has, unless
        the test input has it): a gold text of the id or a test input text takes its known
        tokens, any other is tokenized (the same numbers either way)."""
        known = known_tokens(number, text)
        if known is not None:
            return known
        return [get_number(token, -1) for token in tokenizer.tokens(text)]

    for answer in submitted:
        # An answer's tokens live only while it is checked and scored: memory holds one answer's
        # tokens, not the file's (a token costs far more than its characters).
        number = number_of.get(answer.identifier)
        q_tokens, r_tokens = token_numbers(number, answer.q), token_numbers(number, answer.r)
        for field, answer_tokens in (("q'", q_tokens), ("r'", r_tokens)):
            if len(answer_tokens) > options.nlu_max_answer_tokens:
                problems.add("line %d (id %s), %s" % (answer.line, clip(answer.identifier), field),
                             "the answer has %d tokens; at most %d are accepted"
                             % (len(answer_tokens), options.nlu_max_answer_tokens))
        if problems:
            if problems.saturated:
                break
            continue
        # The answer's bit masks, over the gold's token numbers (a token the gold never has
        # matches nothing), compared with each accepted answer: LCS is symmetric.
        q_masks = token_masks(q_tokens)
        r_masks = token_masks(r_tokens)
        if number is None:  # an unscored id of the test input
            continue
        best: Optional[Tuple[float, float, float, int]] = None
        for row in range(first_row[number], first_row[number + 1]):
            gold_q = gold_sequence[gold_spans[4 * row]:gold_spans[4 * row + 1]]
            gold_r = gold_sequence[gold_spans[4 * row + 2]:gold_spans[4 * row + 3]]
            q_part = ratio(lcs_with_masks(q_masks, gold_q), len(q_tokens), len(gold_q))
            r_part = ratio(lcs_with_masks(r_masks, gold_r), len(r_tokens), len(gold_r))
            if best is None or q_part + r_part > best[0]:
                best = (q_part + r_part, q_part, r_part, len(gold_q) + len(gold_r))
        assert best is not None
        best_of[number] = best
    problems.raise_if_any()
    total = q_total = r_total = 0.0
    rows: List[Tuple[float, float, float, int]] = []  # per id, gold order: the statistics' rows
    lengths: List[int] = []
    for number in range(len(gold_ids)):
        best = best_of[number]
        total += best[0]
        q_total += best[1]
        r_total += best[2]
        rows.append((best[0], best[1], best[2], 1))
        lengths.append(best[3])  # the chosen answer's tokens: its length group (GROUP_TABLES)
    n = len(gold_ids)
    # The headline: the aggregate of the totals of every id's row (q + r, q, r, 1), summed above in
    # id order as ``per_item.column_totals`` sums them for a resample
    totals = {"q_plus_r": total, "q": q_total, "r": r_total, "ids": n}
    scores = aggregate(ItemStatistics(NAME, [], [], [], (), KEYS), totals)
    return TrackResult(
        track=NAME,
        title=TITLE,
        scores=scores,
        details={"scored ids": n, "gold answers": gold.rows, "submitted rows": len(submitted)},
        notes=["Tokens: nltk 3.7 word_tokenize (English Punkt), 1-character punctuation removed; "
               "each text's one pair of wrapping quotes removed first."] + ([gold.note] if gold.note else []),
        warnings=warnings,
        statistics=lambda: id_statistics(gold_ids, rows, lengths, tuple(scores)),
        item_noun="id",
        item_view=item_view(gold_path, name, by_id, tokenizer, test_path if test_ids is not None else None),
    )


def aggregate(statistics: ItemStatistics, totals: Totals, ops=ScalarOps, key: Optional[str] = None
              ) -> Dict[str, float]:
    """``nlu_score`` = Σ (q' + r') / 2N, ``nlu_q`` and ``nlu_r`` the means of the halves; with
    ``key`` "nlu_score", that score alone (a resample's interval then sums two columns, not four)."""
    n = totals["ids"]
    if key == "nlu_score":
        return {"nlu_score": ops.divide(totals["q_plus_r"], 2 * n, 0.0)}
    return {"nlu_score": ops.divide(totals["q_plus_r"], 2 * n, 0.0), "nlu_q": ops.divide(totals["q"], n, 0.0),
            "nlu_r": ops.divide(totals["r"], n, 0.0)}


def item_error(totals: Totals) -> float:
    """The error analysis's error of one id (the totals of its one row): 1 − its nlu_score."""
    return 1 - aggregate(ItemStatistics(NAME, [], [], [], (), KEYS), totals)["nlu_score"]
