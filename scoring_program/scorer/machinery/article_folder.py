"""The article-folder layout of the propaganda tasks (PTC: NLP4IF-2019 FLC, SemEval-2020 Task 11 SI).

Gold: a folder of ``article<ID>...labels`` files, one per article (empty for an article without
spans), with the articles' ``article<ID>.txt`` texts beside them (they bound the offsets and are the
phase's public input), or one TSV file (a line holding only an article id declares an article
without spans). Submission: one TSV file, a row per span, ``article_id [TAB technique] TAB start
TAB end``. A track of this family declares an ``ArticleFolder`` (its folder, file and row columns)
and its techniques; scoring, the public side, the stand-in gold and the sentence baseline are here.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..readers.files import read_gold_text
from ..readers.json_values import MAX_INT_DIGITS
from ..readers.options import Options, other_phase_ids
from ..readers.problems import Problems, clip, reading_reference
from ..readers.records import label_problem, other_phase_line, record_limit
from ..readers.result import ItemView, TrackResult
from ..readers.text_lines import newlines_as_lf, text_blocks
from .span_metric import SpanStatistics, span_track_result
from .span_problems import Overlap, offset_problem, overlap_problem, predictions_under_policy, warn_if_past_the_text
from .span_store import MAX_OFFSET, SpanStore
from .spans import Span, merge_overlapping

if TYPE_CHECKING:  # annotations only: scoring never imports random (baselines do)
    import random

HEADER_SKIPPED = ("%d header line (column names, not a span) was skipped; the format has no header",
                  "%d header lines were skipped")  # (only line 1 is ever taken for one)
ARTICLE_LIST = "articles.txt"  # in the public folder: every article id of the phase, one a line
GOLD_FILE = re.compile(r"^article(\d+).*\.labels$")
# Offsets as the official int() reads them: digits (any the str.isdecimal accepts), with a sign and
# with single underscores between digits (Python 3.6+: "1_2" is 12); the latter scored with a warning.
_OFFSET = re.compile(r"^[+-]?\d+(?:_\d+)*$")
UNDERSCORE_OFFSETS = ("%d line has an offset written with '_' between its digits: read as the official scorer's "
                      "int() reads it ('1_2' is 12)",
                      "%d lines have offsets written with '_' between their digits: read as the official "
                      "scorer's int() reads them ('1_2' is 12)")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


class ArticleFolder:
    """One track's article-folder layout.

    Parameters
    ----------
    gold_folder : str
        The gold folder's name in ``ref/`` (and the public folder's).
    file_name : str
        The submission file (and the gold as one TSV).
    label_suffix : str
        The end of a gold file's name after ``article<ID>``, e.g. ``.task-FLC.labels`` (stand-in gold).
    techniques : sequence of str
        The technique strings a row may hold, in the track's order.
    technique_column : bool
        Whether rows have a technique column (``article_id TAB technique TAB start TAB end``);
        without it (``article_id TAB start TAB end``) every span has the one technique of ``techniques``.
    """

    def __init__(self, gold_folder: str, file_name: str, label_suffix: str, techniques: Sequence[str],
                 technique_column: bool = True) -> None:
        self.gold_folder, self.file_name, self.label_suffix = gold_folder, file_name, label_suffix
        self.techniques = tuple(techniques)
        self.technique_column = technique_column
        if not technique_column and len(self.techniques) != 1:
            raise ValueError("rows without a technique column need exactly one technique")
        self.columns = ("article_id", "technique", "start", "end") if technique_column else \
            ("article_id", "start", "end")

    # --- reading ----------------------------------------------------------------------------------

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

    # --- scoring ----------------------------------------------------------------------------------

    def score(self, track: str, title: str, gold_path: str, submission_path: str, name: str, options: Options,
              reference_dir: str, table: bool = True, any_technique: Optional[str] = None) -> TrackResult:
        """Score one submission as a span track: keys ``span_metric.span_keys(track)``.

        Parameters
        ----------
        track, title : str
            The track's ``NAME`` and ``TITLE``.
        gold_path, submission_path, name, options, reference_dir
            As the contract's ``score``.
        table : bool
            Whether the result has a per-technique table.
        any_technique : str or None
            Techniques ignored (flc's fragments-only mode): every span carries this one label,
            and the gold is merged across techniques.

        Returns
        -------
        TrackResult
            Raises ``SubmissionError`` (problem lines) or ``ReferenceDataError``.
        """
        with reading_reference():
            gold, lengths = self.read_gold(gold_path)
        problems = Problems(name)
        predicted = self.read_submission(submission_path, name, options, lengths, problems, len(gold.order))
        problems.raise_if_any()
        unknown = [article for article in predicted.order if article not in gold]
        if unknown:
            other_phase = other_phase_line(unknown, other_phase_ids(reference_dir, name), len(predicted.order))
            shown = ", ".join(clip(a) for a in unknown[:10]) + (" and %d more" % (len(unknown) - 10)
                                                               if len(unknown) > 10 else "")
            if other_phase:  # said first; the ids then need no list
                problems.add("", other_phase)
            problems.add("", "%d article id%s not in this phase%s"
                         % (len(unknown), "s are" if len(unknown) > 1 else " is",
                            "" if other_phase else ": %s (ids are compared as strings)" % shown))
        techniques = self.techniques if table and any_technique is None else ()
        statistics = self._statistics(gold, predicted, unknown, options, problems, techniques, any_technique)
        problems.raise_if_any()
        result = span_track_result(track, title, statistics, techniques,
                                   options.per_technique_recall == "official", "article")
        result.warnings.extend(problems.warnings)
        result.item_view = self._item_view(gold_path, gold, predicted)
        return result

    def _statistics(self, gold: SpanStore, predicted: SpanStore, unknown: List[str], options: Options,
                    problems: Problems, techniques: Sequence[str], any_technique: Optional[str]) -> SpanStatistics:
        """Per article (gold order) and technique, the span statistics; overlapping predictions are
        problems under the "error" policy (reported in submission order), and then, as after any
        problem, statistics are no longer computed."""
        policy = options.overlapping_predictions
        statistics = SpanStatistics(techniques, confusions=options.detailed_results == "full"
                                    and any_technique is None and len(self.techniques) > 1)
        overlapping: List[Tuple[str, List[Overlap]]] = []
        for article in gold.order + unknown:
            checked: Mapping[str, List[Span]] = {}
            if article in predicted:
                spans = ({any_technique: predicted.all_spans(article)} if any_technique is not None
                         else predicted.by_technique(article))
                checked, overlaps = predictions_under_policy(spans, policy)
                if overlaps:
                    overlapping.append((article, overlaps))
            if not problems and not overlapping:
                if any_technique is not None:
                    merged, by_start = {any_technique: merge_overlapping(gold.all_spans(article))}, None
                else:
                    merged, by_start = gold.merged_and_by_start(article)
                statistics.add_document(article, merged, checked, policy != "keep", by_start, gold)
        if overlapping:
            place = {article: i for i, article in enumerate(predicted.order)}
            for article, overlaps in sorted(overlapping, key=lambda item: place[item[0]]):
                for overlap in overlaps:
                    problems.add("article %s" % clip(article), overlap_problem(overlap))
        return statistics

    def _item_view(self, gold_path: str, gold: SpanStore, predicted: SpanStore) -> Callable[[str], ItemView]:
        """Local error analysis only: an article's text (when the gold folder has it) and spans."""
        def view(article: str) -> ItemView:
            text_path = os.path.join(gold_path, "article%s.txt" % article)
            text = read_gold_text(text_path, os.path.basename(text_path)) if os.path.isfile(text_path) else None
            return ItemView(text, _flat(gold.by_technique(article)) if article in gold else [],
                            _flat(predicted.by_technique(article)) if article in predicted else [])
        return view

    def in_memory_scores(self, gold_path: str, submission_path: str, name: str,
                         overlapping: str) -> Dict[str, float]:
        """``span_metric.span_scores`` (the cards' in-memory entry point) on the articles of the gold
        and the submitted file as this layout reads them. Raises ``ValueError`` with the problem
        lines of a submission it cannot read."""
        from .span_metric import span_scores

        gold, lengths = self.read_gold(gold_path)
        problems = Problems(name)
        predicted = self.read_submission(submission_path, name, Options(), lengths, problems, 1 << 62)
        if problems:
            raise ValueError("; ".join(problems.lines))
        return span_scores({article: _flat(gold.by_technique(article)) for article in gold.order},
                           {article: _flat(predicted.by_technique(article)) for article in predicted.order},
                           overlapping)

    def reference_data_problem(self, folder: str) -> str:
        """What the build says when a phase's gold lacks the article texts ('' when they are there):
        the texts are the track's public input, so participants would get only the article ids."""
        gold, tsv = os.path.join(folder, self.gold_folder), os.path.join(folder, self.file_name)
        if os.path.isdir(gold):
            articles = [m.group(1) for m in map(GOLD_FILE.match, sorted(os.listdir(gold))) if m]
            missing = [a for a in articles if not os.path.isfile(os.path.join(gold, "article%s.txt" % a))]
            if missing:
                return ("%s: %d of the %d articles have no article<ID>.txt text (the first: article%s.txt): "
                        "participants would get no text for them (the public data is the texts) and the sample "
                        "submission no spans; put the task's article texts beside the .labels files"
                        % (gold, len(missing), len(articles), missing[0]))
        elif os.path.isfile(tsv):
            return ("%s holds no article texts: participants would get only the article ids; give the gold as the "
                    "folder %s/ with the task's article<ID>.txt texts beside the .labels files"
                    % (tsv, self.gold_folder))
        return ""

    # --- the public side (bundle build, starting kit): the inputs without the answers -------------

    def write_public_input(self, gold_dir: str, public_dir: str, filename: str) -> List[str]:
        """``<gold_folder>/``: the article texts of the gold folder and ``articles.txt``."""
        import shutil
        from .public_input import write_text
        folder, tsv = os.path.join(gold_dir, self.gold_folder), os.path.join(gold_dir, self.file_name)
        articles: List[str] = []
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                match = GOLD_FILE.match(name)
                if match:
                    articles.append(match.group(1))
                    text = os.path.join(folder, "article%s.txt" % match.group(1))
                    if os.path.isfile(text):
                        os.makedirs(os.path.join(public_dir, self.gold_folder), exist_ok=True)
                        shutil.copyfile(text, os.path.join(public_dir, self.gold_folder,
                                                           "article%s.txt" % match.group(1)))
        elif os.path.isfile(tsv):
            with open(tsv, encoding="utf-8-sig") as handle:
                for line in handle:
                    article = line.split("\t")[0].strip()
                    if article and article not in articles:
                        articles.append(article)
        else:
            return []
        write_text(os.path.join(public_dir, self.gold_folder, ARTICLE_LIST), "".join(a + "\n" for a in articles))
        return [self.gold_folder + "/"]

    def public_ids(self, public_dir: str, filename: str) -> Optional[List[str]]:
        """The article ids of the public input (None: there is none)."""
        path = os.path.join(public_dir, self.gold_folder, ARTICLE_LIST)
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as handle:
            return [line.strip() for line in handle if line.strip()]

    def is_public_input(self, folder: str) -> bool:
        """Whether ``folder`` holds this track's public input (the article list), which gold never has."""
        return os.path.isfile(os.path.join(folder, self.gold_folder, ARTICLE_LIST))

    def write_stand_in_gold(self, public_dir: str, gold_dir: str, filename: str) -> List[str]:
        """A gold folder of empty ``.labels`` files, one per article, with the texts (they bound the offsets)."""
        import shutil
        articles = self.public_ids(public_dir, filename)
        if articles is None:
            return []
        target = os.path.join(gold_dir, self.gold_folder)
        os.makedirs(target, exist_ok=True)
        for article in articles:
            open(os.path.join(target, "article%s%s" % (article, self.label_suffix)), "w").close()
            text = os.path.join(public_dir, self.gold_folder, "article%s.txt" % article)
            if os.path.isfile(text):
                shutil.copyfile(text, os.path.join(target, "article%s.txt" % article))
        return [filename]

    def write_baseline(self, public_dir: str, out_dir: str, filename: str, seed: int = 42,
                       technique: Optional[Callable[["random.Random"], str]] = None) -> List[str]:
        """The sentence baseline (``sentence_spans``) of the public articles, written as ``filename``.

        Parameters
        ----------
        technique : callable or None
            Draws a span's technique from the baseline's generator (rows with a technique column).
        """
        from .public_input import write_text
        articles = self.public_ids(public_dir, filename)
        if articles is None:
            return []
        texts = {}
        for article in articles:
            path = os.path.join(public_dir, self.gold_folder, "article%s.txt" % article)
            texts[article] = ""
            if os.path.isfile(path):
                with open(path, encoding="utf-8-sig") as handle:
                    texts[article] = handle.read()
        rows = sentence_spans(texts, seed, technique)
        write_text(os.path.join(out_dir, filename), "".join("\t".join(map(str, row)) + "\n" for row in rows))
        return [filename]


def sentence_spans(articles: Dict[str, str], seed: int = 42,
                   technique: Optional[Callable[["random.Random"], str]] = None) -> List[tuple]:
    """The sentence baseline: a third of each article's sentences, at random, as spans.

    Parameters
    ----------
    articles : dict of article id -> text
    seed : int
        The generator's seed.
    technique : callable or None
        Draws each span's technique from the generator; None: rows without a technique.

    Returns
    -------
    list of tuple
        (article, technique, start, end), or (article, start, end) without ``technique``; one
        span per chosen sentence, so spans never overlap.
    """
    import random
    rng = random.Random(seed)
    rows: List[tuple] = []
    for article, text in articles.items():
        sentences = [m.span() for m in _SENTENCE.finditer(text) if m.group().strip()]
        wanted = max(1, len(sentences) // 3) if sentences else 0
        for start, end in sorted(rng.sample(sentences, min(wanted, len(sentences)))):
            while start < end and text[start].isspace():
                start += 1
            if start < end:
                rows.append((article, technique(rng), start, end) if technique else (article, start, end))
    return rows


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


def _flat(spans: Mapping[str, List[Span]]) -> List[Tuple[str, int, int]]:
    return [(technique, start, end) for technique, group in spans.items() for start, end in group]
