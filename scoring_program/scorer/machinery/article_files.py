"""The files of the article-folder layout (PTC: NLP4IF-2019 FLC, SemEval-2020 Task 11 SI) and their reading.

Gold: a folder of ``article<ID>...labels`` files, one per article (empty for an article without
spans), with the articles' ``article<ID>.txt`` texts beside them (they bound the offsets), or one
TSV file (a line holding only an article id declares an article without spans). Submission: one
TSV file, a row per span, ``article_id [TAB technique] TAB start TAB end``.
"""

from __future__ import annotations

import os
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..readers.files import read_gold_text
from ..readers.json_values import MAX_INT_DIGITS
from ..readers.options import Options
from ..readers.problems import Problems, clip
from ..readers.records import label_problem, record_limit
from ..readers.text_lines import newlines_as_lf, text_blocks
from .span_problems import offset_problem, warn_if_past_the_text
from .span_store import MAX_OFFSET, SpanStore

HEADER_SKIPPED = ("%d header line (column names, not a span) was skipped; the format has no header",
                  "%d header lines were skipped")  # (only line 1 is ever taken for one)
GOLD_FILE = re.compile(r"^article(\d+).*\.labels$")
# Offsets as the official int() reads them: digits (any the str.isdecimal accepts), with a sign and
# with single underscores between digits (Python 3.6+: "1_2" is 12); the latter scored with a warning.
_OFFSET = re.compile(r"^[+-]?\d+(?:_\d+)*$")
UNDERSCORE_OFFSETS = ("%d line has an offset written with '_' between its digits: read as the official scorer's "
                      "int() reads it ('1_2' is 12)",
                      "%d lines have offsets written with '_' between their digits: read as the official "
                      "scorer's int() reads them ('1_2' is 12)")


class ArticleFiles:
    """The names and columns of one track's article-folder layout (``ArticleFolder``'s parameters)
    and the reading of its files."""

    def __init__(self, gold_folder: str, file_name: str, label_suffix: str, techniques: Sequence[str],
                 technique_column: bool = True) -> None:
        self.gold_folder, self.file_name, self.label_suffix = gold_folder, file_name, label_suffix
        self.techniques = tuple(techniques)
        self.technique_column = technique_column
        if not technique_column and len(self.techniques) != 1:
            raise ValueError("rows without a technique column need exactly one technique")
        self.columns = ("article_id", "technique", "start", "end") if technique_column else \
            ("article_id", "start", "end")

    def parse_lines(self, lines: Iterable[str], store: SpanStore, problems: Problems,
                    text_lengths: Dict[str, int], allow_declarations: bool, first_line: int = 1,
                    submitted: bool = False) -> None:
        """Add every row of ``lines`` to ``store``; a row that is not a valid span becomes a problem.

        Parameters
        ----------
        lines : iterable of str
            The file's lines, the first numbered ``first_line``.
        store : SpanStore
            Where the spans go (``techniques``' numbering).
        problems : Problems
            Where each invalid row is named (line and field).
        text_lengths : dict of article -> int
            The texts' lengths: in gold a span past its text is a problem; in a ``submitted`` file
            it is scored as given with a counted warning, as the official scorers (which never read
            the texts) score it.
        allow_declarations : bool
            Whether a line holding only an article id declares an article without spans (gold TSV).
        """
        columns = len(self.columns)
        known = store.technique_number
        spans_of = store.spans
        only = None if self.technique_column else self.techniques[0]
        for number, line in enumerate(lines, start=first_line):
            # The official reader right-strips each line before splitting it on TAB: trailing TABs,
            # spaces and the CR of CRLF are not columns.
            line = line.rstrip()
            if not line:
                continue
            if problems.saturated:
                break
            fields = line.split("\t")
            if len(fields) != columns:
                self._column_problem(number, line, fields, store, problems, allow_declarations)
                continue
            article, start_text, end_text = fields[0].strip(), fields[-2].strip(), fields[-1].strip()
            technique = only or fields[1].strip()
            start, end = _offset(start_text), _offset(end_text)
            if number == 1 and submitted and start is None and end is None and (only or technique not in known):
                problems.warn(HEADER_SKIPPED, "line 1")  # a column-name line: nothing to score in it
                continue
            if not article:
                problems.add("line %d" % number, "the article id is empty")
                continue
            if technique not in known:
                problems.add("line %d" % number, label_problem(technique, self.techniques))
                continue
            length = text_lengths.get(article)
            if start is None or end is None or not 0 <= start < end or (length is not None and not submitted
                                                                          and end > length):
                problem = offset_problem(start, end, None if submitted else length)
                problems.add("line %d" % number, _offset_problem(problem, start, end, start_text, end_text))
                continue
            if end > MAX_OFFSET:
                problems.add("line %d" % number, "end=%s is too large (at most %d)" % (_clip(end_text), MAX_OFFSET))
                continue
            if length is not None and end > length:  # (submitted: gold past its text is refused above)
                warn_if_past_the_text(start, end, length, "article", problems, "line %d" % number)
            if submitted and ("_" in start_text or "_" in end_text):
                problems.warn(UNDERSCORE_OFFSETS, "line %d" % number)
            triples = spans_of.get(article)
            if triples is None:
                triples = store.declare(article)
            triples.extend((known[technique], start, end))

    def _column_problem(self, number: int, line: str, fields: List[str], store: SpanStore, problems: Problems,
                        allow_declarations: bool) -> None:
        if len(fields) == 1 and allow_declarations:
            store.declare(fields[0].strip())
            return
        hint = " (separate the columns with TAB characters)" if len(fields) == 1 and " " in line else ""
        problems.add("line %d" % number, "expected %d TAB-separated columns %s; found %d%s"
                     % (len(self.columns), ", ".join(self.columns), len(fields), hint))

    def read_gold(self, gold_path: str) -> Tuple[SpanStore, Dict[str, int]]:
        """The gold: its articles in a stable order with their spans, and the text lengths known.

        Parameters
        ----------
        gold_path : str
            The gold folder (articles sorted by file name) or one TSV.

        Returns
        -------
        (SpanStore, dict of article -> int)
            Raises ``ReferenceDataError`` naming the file and line of a problem.
        """
        store = SpanStore(self.techniques)
        problems = Problems(self.gold_folder)
        if not os.path.isdir(gold_path):
            for first_line, block in text_blocks(gold_path, self.file_name, None, None):
                self.parse_lines(newlines_as_lf(block).split("\n"), store, problems, {}, True, first_line)
            problems.raise_as_reference_error()
            return store, {}
        lengths: Dict[str, int] = {}
        names = os.listdir(gold_path)
        present = set(names)
        label_files = sorted(name for name in names if name.endswith(".labels"))
        if not label_files:
            problems.add("", "no article<ID>...labels file in the folder")
        file_problems = Problems(self.gold_folder)  # the first file with a problem names it
        for file_name in label_files:
            match = GOLD_FILE.match(file_name)
            if not match:
                problems.add(file_name, "the file name must start with article<digits>")
                continue
            article = match.group(1)
            if article in store:
                problems.add(file_name, "a second gold file for the same article id")
                continue
            text_name = "article%s.txt" % article
            if text_name in present:
                lengths[article] = len(read_gold_text(os.path.join(gold_path, text_name), text_name))
            text = newlines_as_lf(read_gold_text(os.path.join(gold_path, file_name), file_name))
            store.declare(article)
            if any(line.split("\t", 1)[0].strip() != article for line in text.split("\n") if "\t" in line):
                file_problems.add("", "a row names another article than the file name")
            else:
                self.parse_lines(text.split("\n"), store, file_problems, lengths, False)
            if file_problems:
                file_problems.filename = "%s/%s" % (self.gold_folder, file_name)
                file_problems.raise_as_reference_error()
        problems.raise_as_reference_error()
        return store, lengths

    def read_submission(self, path: str, name: str, options: Options, lengths: Dict[str, int],
                        problems: Problems, max_articles: int) -> SpanStore:
        """The submitted spans, with the per-article limits.

        Parameters
        ----------
        path, name : str
            The submitted file and its name in problem lines.
        options : Options
            ``max_file_bytes`` and ``max_spans_per_document`` bound what is read.
        lengths : dict of article -> int
            The gold texts' lengths (spans past them are warnings).
        problems : Problems
            Where problems go.
        max_articles : int
            The phase's article count: reading stops past ``record_limit(max_articles)`` ids.

        Returns
        -------
        SpanStore
        """
        predicted = SpanStore(self.techniques)
        max_articles = record_limit(max_articles)
        for first_line, block in text_blocks(path, name, options.max_file_bytes):  # 1 MiB at a time
            if problems.saturated:
                break
            self.parse_lines(newlines_as_lf(block).split("\n"), predicted, problems, lengths, False, first_line,
                             submitted=True)
            if len(predicted.order) > max_articles:
                problems.add("line %d and before" % (first_line + block.count("\n")),
                             "more than %d article ids, but this phase has far fewer articles" % max_articles)
                break
        for article in predicted.order:
            if predicted.count(article) > options.max_spans_per_document:
                problems.add("article %s" % clip(article), "%d spans; at most %d per article are accepted"
                             % (predicted.count(article), options.max_spans_per_document))
        return predicted


def _offset(text: str) -> Optional[int]:
    # Digits only: "100.0" or "1e3" are not offsets (the official scorers crash on them).
    if text.isdecimal() and len(text) <= MAX_INT_DIGITS:  # (what the expression below accepts unsigned)
        return int(text)
    digits = text.replace("_", "")
    return int(text) if len(digits) <= MAX_INT_DIGITS + 1 and len(text) <= 2 * MAX_INT_DIGITS + 1 and \
        _OFFSET.match(text) and len(digits.lstrip("+-")) <= MAX_INT_DIGITS else None


def _offset_problem(problem: str, start: Optional[int], end: Optional[int], start_text: str, end_text: str) -> str:
    """``offset_problem``'s words, or what is wrong with an offset that did not read as an integer."""
    longest = max(len(start_text.lstrip("+-")), len(end_text.lstrip("+-")))
    if longest > MAX_INT_DIGITS and (start is None or end is None):
        return "an offset of %d digits; at most %d are accepted" % (longest, MAX_INT_DIGITS)
    if start is None or end is None:
        return "start and end must be integer character offsets (found %r, %r)" % (_clip(start_text), _clip(end_text))
    return problem


def _clip(text: str) -> str:
    return text if len(text) <= 20 else text[:17] + "..."
