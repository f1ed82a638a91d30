"""Track ``flc``: NLP4IF-2019 fragment-level classification of propaganda in news articles.

18 techniques, character spans; partial-overlap precision/recall/F1 summed over all
(prediction, gold) pairs of one technique in one article, as the official ``task-FLC_scorer.py``:
gold spans of one technique that share a character are merged first. Metric card: ``flc.md``.

Gold: a folder ``nlp4if2019_flc/`` in the official layout (``article<ID>...labels`` files, one per
article, empty for an article without propaganda; optional ``article<ID>.txt`` texts bound the
offsets), or one TSV ``nlp4if2019_flc.tsv`` (a line holding only an article id declares an article
without spans). Submission: ``nlp4if2019_flc.tsv``, lines ``article_id TAB technique TAB start TAB end``.
"""

from __future__ import annotations

import io
import os
import re
from typing import Dict, List, Optional, Tuple

from ..options import Options
from ..problems import Problems, reading_reference
from ..readers import read_text
from ..records import label_problem
from ..result import TrackResult
from ..span_metric import apply_overlap_policy, offset_problem, span_track_result
from ..spans import Span, merge_overlapping
from ..techniques import NLP4IF2019_FLC

TITLE = "NLP4IF-2019 FLC: propaganda techniques and their spans in news articles"
TECHNIQUES = NLP4IF2019_FLC
GOLD_FOLDER = "nlp4if2019_flc"
FILE_NAME = "nlp4if2019_flc.tsv"
ALL_TECHNIQUES = "(any technique)"  # the single label of the fragments-only mode

Articles = Dict[str, Dict[str, List[Span]]]  # article id -> technique -> spans

_GOLD_FILE = re.compile(r"^article(\d+).*\.labels$")
_OFFSET = re.compile(r"^[+-]?\d+$")


def parse_rows(text: str, name: str, problems: Problems, text_lengths: Dict[str, int],
               allow_declarations: bool, max_spans: int) -> Tuple[List[str], Articles]:
    """(article ids in order of first appearance, spans per article and technique)."""
    known = frozenset(TECHNIQUES)
    order: List[str] = []
    articles: Articles = {}
    # io.StringIO yields one line at a time: no list of a million lines held at once
    for number, line in enumerate(io.StringIO(text, newline="\n"), start=1):
        if line.endswith("\n"):
            line = line[:-1]
        fields = line.split("\t")
        if len(fields) == 4:  # the fast path: digits-only offsets, a known technique
            article, technique, start_text, end_text = fields
            if end_text.endswith("\r"):
                end_text = end_text[:-1]
            if (technique in known and start_text.isdigit() and end_text.isdigit() and start_text.isascii()
                    and end_text.isascii() and len(start_text) <= 40 and len(end_text) <= 40 and article and article.strip() == article):
                start, end = int(start_text), int(end_text)
                length = text_lengths.get(article)
                if start < end and (length is None or end <= length):
                    spans = articles.get(article)
                    if spans is None:
                        order.append(article)
                        spans = articles[article] = {}
                    spans.setdefault(technique, []).append((start, end))
                    continue
        if not line.strip():
            continue
        if problems.saturated:
            break
        _check_row(number, line, problems, text_lengths, allow_declarations, known, order, articles)
    for article in order:
        count = sum(len(spans) for spans in articles[article].values())
        if count > max_spans:
            problems.add("article %r" % article, "%d spans; at most %d per article are accepted"
                         % (count, max_spans))
    return order, articles


def _check_row(number: int, line: str, problems: Problems, text_lengths: Dict[str, int],
               allow_declarations: bool, known: frozenset, order: List[str], articles: Articles) -> None:
    """The slow path: a line the fast path did not take (a problem, or unusual but valid)."""
    where = "line %d" % number
    line = line[:-1] if line.endswith("\r") else line
    fields = line.split("\t")
    if len(fields) == 1 and allow_declarations:
        article = fields[0].strip()
        if article not in articles:
            order.append(article)
            articles[article] = {}
        return
    if len(fields) != 4:
        hint = " (separate the columns with TAB characters)" if len(fields) == 1 and " " in line else ""
        problems.add(where, "expected 4 TAB-separated columns article_id, technique, start, end; "
                            "found %d%s" % (len(fields), hint))
        return
    article, technique, start_text, end_text = (field.strip() for field in fields)
    if not article:
        problems.add(where, "the article id is empty")
        return
    if technique not in known:
        problems.add(where, label_problem(technique, TECHNIQUES))
        return
    start, end = _offset(start_text), _offset(end_text)
    problem = offset_problem(start, end, text_lengths.get(article))
    if problem:
        if start is None or end is None:
            problem = "start and end must be integer character offsets (found %r, %r)" \
                      % (_clip(start_text), _clip(end_text))
        problems.add(where, problem)
        return
    if article not in articles:
        order.append(article)
        articles[article] = {}
    articles[article].setdefault(technique, []).append((start, end))  # type: ignore[arg-type]


def _offset(text: str) -> Optional[int]:
    # Digits only: "100.0" or "1e3" are not offsets (the official scorer crashes on them).
    return int(text) if _OFFSET.match(text) and len(text) <= 40 else None


def _clip(text: str) -> str:
    return text if len(text) <= 20 else text[:17] + "..."


def read_gold(gold_path: str, max_bytes: int) -> Tuple[List[str], Articles, Dict[str, int]]:
    """Gold articles in a stable order (sorted by file name), their spans and known text lengths.

    ``gold_path`` is a folder in the official layout or a single TSV file.
    """
    folder = gold_path
    problems = Problems(GOLD_FOLDER)
    if os.path.isdir(folder):
        order: List[str] = []
        articles: Articles = {}
        lengths: Dict[str, int] = {}
        label_files = sorted(f for f in os.listdir(folder) if f.endswith(".labels"))
        if not label_files:
            problems.add("", "no article<ID>...labels file in the folder")
        for file_name in label_files:
            match = _GOLD_FILE.match(file_name)
            if not match:
                problems.add(file_name, "the file name must start with article<digits>")
                continue
            article = match.group(1)
            if article in articles:
                problems.add(file_name, "a second gold file for the same article id")
                continue
            text_path = os.path.join(folder, "article%s.txt" % article)
            if os.path.isfile(text_path):
                lengths[article] = len(read_text(text_path, "article%s.txt" % article, max_bytes))
            file_problems = Problems("%s/%s" % (GOLD_FOLDER, file_name))
            text = read_text(os.path.join(folder, file_name), file_name, max_bytes)
            rows_order, rows = parse_rows(text, file_name, file_problems, lengths, False, 1 << 62)
            if any(other != article for other in rows_order):
                file_problems.add("", "a row names another article than the file name")
            file_problems.raise_as_reference_error()
            order.append(article)
            articles[article] = rows.get(article, {})
        problems.raise_as_reference_error()
        return order, articles, lengths
    text = read_text(gold_path, FILE_NAME, max_bytes)
    order, articles = parse_rows(text, FILE_NAME, problems, {}, True, 1 << 62)
    problems.raise_as_reference_error()
    return order, articles, {}


def _collapse_techniques(articles: Articles) -> Articles:
    return {article: {ALL_TECHNIQUES: [span for spans in by_technique.values() for span in spans]}
            for article, by_technique in articles.items()}


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    with reading_reference():
        gold_order, gold, lengths = read_gold(gold_path, 1 << 62)
    problems = Problems(name)
    text = read_text(submission_path, name, options.max_file_bytes)
    order, predicted = parse_rows(text, name, problems, lengths, False, options.max_spans_per_document)
    problems.raise_if_any()
    unknown = [article for article in order if article not in gold]
    if unknown:
        shown = ", ".join(repr(a) for a in unknown[:10]) + (" and %d more" % (len(unknown) - 10)
                                                           if len(unknown) > 10 else "")
        problems.add("", "%d article id%s not in this phase: %s (ids are compared as strings)"
                     % (len(unknown), "s are" if len(unknown) > 1 else " is", shown))
    if options.flc_ignore_techniques:
        gold, predicted = _collapse_techniques(gold), _collapse_techniques(predicted)
    gold = {article: {technique: merge_overlapping(spans) for technique, spans in by_technique.items()}
            for article, by_technique in gold.items()}
    apply_overlap_policy(predicted, order, options.overlapping_predictions, problems, "article")
    problems.raise_if_any()
    techniques = () if options.flc_ignore_techniques else TECHNIQUES
    result = span_track_result("flc", TITLE, "flc", gold, predicted, gold_order, techniques,
                               options.per_technique_recall == "official", "article")
    if options.flc_ignore_techniques:
        result.notes.append("Fragments only: techniques are ignored (official -f mode).")
    return result
