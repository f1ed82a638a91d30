"""The article-folder layout of the propaganda tasks (PTC: NLP4IF-2019 FLC, SemEval-2020 Task 11 SI).

A track of this family declares an ``ArticleFolder`` (its folder, file and row columns) and its
techniques. Its files and their reading are in ``article_files.py``; its public side, the stand-in
gold and the sentence baseline in ``article_public.py``; its scoring here.
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..readers.files import read_gold_text
from ..readers.options import Options, other_phase_ids
from ..readers.problems import Problems, clip, reading_reference
from ..readers.records import other_phase_line
from ..readers.result import ItemView, TrackResult
from .article_files import ArticleFiles
from .article_public import ArticlePublicSide
from .item_digests import span_digests
from .span_metric import SpanStatistics, span_track_result
from .span_problems import Overlap, overlap_problem, predictions_under_policy
from .span_store import SpanStore
from .spans import Span, merge_overlapping


class ArticleFolder(ArticleFiles, ArticlePublicSide):
    """One track's article-folder layout: its files (``ArticleFiles``), its public side
    (``ArticlePublicSide``) and its scoring.

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

    def prediction_digests(self, submission_path: str, name: str, options: Options,
                           any_technique: Optional[str] = None) -> Dict[str, bytes]:
        """The contract's ``prediction_digests``: each article's spans as the scorer scores them
        (``item_digests.span_digests``); ``any_technique`` as in ``score``.

        Parameters
        ----------
        submission_path, name, options
            As the contract's ``prediction_digests``.
        any_technique : str or None
            Techniques ignored: every span carries this one label.

        Returns
        -------
        dict of article id -> bytes
        """
        problems = Problems(name)
        predicted = self.read_submission(submission_path, name, options, {}, problems, 1 << 62)
        problems.raise_if_any()
        policy = options.overlapping_predictions
        return span_digests((article, predictions_under_policy(
            {any_technique: predicted.all_spans(article)} if any_technique is not None
            else predicted.by_technique(article), policy)[0]) for article in predicted.order)

    def _statistics(self, gold: SpanStore, predicted: SpanStore, unknown: List[str], options: Options,
                    problems: Problems, techniques: Sequence[str], any_technique: Optional[str]) -> SpanStatistics:
        """Per article (gold order) and technique, the span statistics; overlapping predictions are
        problems under the "error" policy (reported in submission order), and then, as after any
        problem, statistics stop being computed."""
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
                merged = ({any_technique: merge_overlapping(gold.all_spans(article))} if any_technique is not None
                          else gold.merged(article))
                statistics.add_document(article, merged, checked)
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


def _flat(spans: Mapping[str, List[Span]]) -> List[Tuple[str, int, int]]:
    return [(technique, start, end) for technique, group in spans.items() for start, end in group]
