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

import os
import re
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from ..options import Options, other_phase_ids
from ..problems import Problems, reading_reference
from ..problems import clip
from ..readers import MAX_INT_DIGITS, newlines_as_lf, read_gold_text, text_blocks
from ..records import label_problem, other_phase_line, record_limit
from .. import span_metric
from ..result import ItemView, TrackResult
from ..span_metric import (Overlap, SpanStatistics, offset_problem, overlap_problem, predictions_under_policy,
                           span_track_result, warn_if_past_the_text)
from ..span_store import MAX_OFFSET, SpanStore
from ..spans import Span, merge_overlapping
from ..techniques import NLP4IF2019_FLC

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

NAME = "flc"
TITLE = "NLP4IF-2019 FLC: propaganda techniques and their spans in news articles"
TECHNIQUES = NLP4IF2019_FLC
GOLD_FOLDER = "nlp4if2019_flc"  # the gold in ref/: a folder in the official layout
FILE_NAME = "nlp4if2019_flc.tsv"  # (and the gold as one TSV)
GOLD_NAMES = (GOLD_FOLDER, FILE_NAME)
KEYS = ("flc_f1", "flc_precision", "flc_recall")
LOWER_IS_BETTER = frozenset()
LEADERBOARDS = ((NAME, "flc_f1"),)
POOLED_KEYS = KEYS
RELEASED_GOLD = {"train": "train-labels-FLC"}  # the PTC folder of article<ID>.task-FLC.labels files
ALL_TECHNIQUES = "(any technique)"  # the single label of the fragments-only mode
SETTINGS = ("overlapping_predictions", "per_technique_recall", "flc_ignore_techniques")

HEADER_SKIPPED = ("%d header line (column names, not a span) was skipped; the format has no header",
                  "%d header lines were skipped")  # (only line 1 is ever taken for one)
_GOLD_FILE = re.compile(r"^article(\d+).*\.labels$")
# Offsets as the official int() reads them: digits (any the str.isdecimal accepts), with a sign and
# with single underscores between digits (Python 3.6+: "1_2" is 12); the latter scored with a warning.
_OFFSET = re.compile(r"^[+-]?\d+(?:_\d+)*$")
UNDERSCORE_OFFSETS = ("%d line has an offset written with '_' between its digits: read as the official scorer's "
                      "int() reads it ('1_2' is 12)",
                      "%d lines have offsets written with '_' between their digits: read as the official "
                      "scorer's int() reads them ('1_2' is 12)")


def parse_block(block: str, first_line: int, store: SpanStore, problems: Problems,
                text_lengths: Dict[str, int], allow_declarations: bool, submitted: bool = False) -> None:
    """``parse_lines`` over a block of whole lines whose first line is number ``first_line``."""
    parse_lines(newlines_as_lf(block).split("\n"), store, problems, text_lengths, allow_declarations, first_line,
                submitted)


def parse_lines(lines: Iterable[str], store: SpanStore, problems: Problems, text_lengths: Dict[str, int],
                allow_declarations: bool, first_line: int = 1, submitted: bool = False) -> None:
    """Add every row of ``lines`` to ``store``; a row that is not a valid span becomes a problem.

    ``text_lengths`` bound the offsets: in gold, a span past its text is a problem; in a
    ``submitted`` file it is scored as given with a counted warning, as the official scorer
    (which never reads the texts) scores it.

    A line the fast path below takes is valid by the same rules ``_check_row`` applies (the one
    validator, which also names every problem); the fast path pays: without it flc x10's
    time/floor goes from 2.88 to 4.55, against the target of 3 (issue 21, medians of interleaved
    pairs in both orders). tests/test_fast_paths.py: it accepts and refuses what ``_check_row`` does.
    """
    techniques = store.technique_number
    spans_of = store.spans
    declare = store.declare
    for number, line in enumerate(lines, start=first_line):
        fields = line.split("\t")
        if len(fields) == 4:  # the fast path: digits-only offsets, a known technique
            article, technique, start_text, end_text = fields
            if end_text.endswith("\r"):
                end_text = end_text[:-1]
            technique_number = techniques.get(technique)
            # isdecimal: the digits int() reads (as the slow path's \d); <= 18 of them: below
            # 10**18, so the offsets fit the store's 64-bit items
            if (technique_number is not None and start_text.isdecimal() and end_text.isdecimal()
                    and len(start_text) <= 18 and len(end_text) <= 18 and article
                    and article.strip() == article):
                start, end = int(start_text), int(end_text)
                length = text_lengths.get(article)
                if start < end and (length is None or end <= length or submitted):
                    if length is not None and end > length:
                        warn_if_past_the_text(start, end, length, "article", problems, "line %d" % number)
                    triples = spans_of.get(article)
                    if triples is None:
                        triples = declare(article)
                    triples.extend((technique_number, start, end))
                    continue
        if not line.strip():
            continue
        if problems.saturated:
            break
        _check_row(number, line, problems, text_lengths, allow_declarations, store, submitted)


def _check_row(number: int, line: str, problems: Problems, text_lengths: Dict[str, int],
               allow_declarations: bool, store: SpanStore, submitted: bool) -> None:
    """The slow path: a line the fast path did not take (a problem, or unusual but valid)."""
    where = "line %d" % number
    # The official reader right-strips each line before splitting it on TAB: trailing TABs,
    # spaces and the CR of CRLF are not columns.
    line = line.rstrip()
    fields = line.split("\t")
    if len(fields) == 1 and allow_declarations:
        store.declare(fields[0].strip())
        return
    if len(fields) != 4:
        hint = " (separate the columns with TAB characters)" if len(fields) == 1 and " " in line else ""
        problems.add(where, "expected 4 TAB-separated columns article_id, technique, start, end; "
                            "found %d%s" % (len(fields), hint))
        return
    article, technique, start_text, end_text = (field.strip() for field in fields)
    if number == 1 and submitted and _offset(start_text) is None and _offset(end_text) is None \
            and technique not in store.technique_number:
        problems.warn(HEADER_SKIPPED, where)  # a column-name line: nothing to score in it
        return
    if not article:
        problems.add(where, "the article id is empty")
        return
    if technique not in store.technique_number:
        problems.add(where, label_problem(technique, TECHNIQUES))
        return
    start, end = _offset(start_text), _offset(end_text)
    length = text_lengths.get(article)
    problem = offset_problem(start, end, None if submitted else length)
    if problem:
        longest = max(len(start_text.lstrip("+-")), len(end_text.lstrip("+-")))
        if longest > MAX_INT_DIGITS and (start is None or end is None):
            problem = "an offset of %d digits; at most %d are accepted" % (longest, MAX_INT_DIGITS)
        elif start is None or end is None:
            problem = "start and end must be integer character offsets (found %r, %r)" \
                      % (_clip(start_text), _clip(end_text))
        problems.add(where, problem)
        return
    if end > MAX_OFFSET:  # type: ignore[operator]
        problems.add(where, "end=%s is too large (at most %d)" % (_clip(end_text), MAX_OFFSET))
        return
    if submitted:
        warn_if_past_the_text(start, end, length, "article", problems, where)  # type: ignore[arg-type]
        if "_" in start_text or "_" in end_text:
            problems.warn(UNDERSCORE_OFFSETS, where)
    store.add(article, technique, start, end)  # type: ignore[arg-type]


def _offset(text: str) -> Optional[int]:
    # Digits only: "100.0" or "1e3" are not offsets (the official scorer crashes on them).
    digits = text.replace("_", "")
    return int(text) if len(digits) <= MAX_INT_DIGITS + 1 and len(text) <= 2 * MAX_INT_DIGITS + 1 and \
        _OFFSET.match(text) and len(digits.lstrip("+-")) <= MAX_INT_DIGITS else None


def _clip(text: str) -> str:
    return text if len(text) <= 20 else text[:17] + "..."


def read_gold(gold_path: str) -> Tuple[SpanStore, Dict[str, int]]:
    """Gold articles in a stable order with their spans, and the text lengths known.

    ``gold_path`` is a folder in the official layout (articles sorted by file name) or one TSV.
    """
    if os.path.isdir(gold_path):
        return _read_gold_folder(gold_path)
    store = SpanStore(TECHNIQUES)
    problems = Problems(GOLD_FOLDER)
    for first_line, block in text_blocks(gold_path, FILE_NAME, None, None):
        parse_block(block, first_line, store, problems, {}, True)
    problems.raise_as_reference_error()
    return store, {}


def _read_gold_folder(folder: str) -> Tuple[SpanStore, Dict[str, int]]:
    store = SpanStore(TECHNIQUES)
    problems = Problems(GOLD_FOLDER)
    lengths: Dict[str, int] = {}
    names = os.listdir(folder)
    present = set(names)  # one listing instead of a stat per article for its text
    label_files = sorted(name for name in names if name.endswith(".labels"))
    if not label_files:
        problems.add("", "no article<ID>...labels file in the folder")
    file_problems = Problems(GOLD_FOLDER)  # the first file with a problem names it (one object for all)
    for file_name in label_files:
        match = _GOLD_FILE.match(file_name)
        if not match:
            problems.add(file_name, "the file name must start with article<digits>")
            continue
        article = match.group(1)
        if article in store:
            problems.add(file_name, "a second gold file for the same article id")
            continue
        text_name = "article%s.txt" % article
        if text_name in present:
            lengths[article] = len(read_gold_text(os.path.join(folder, text_name), text_name))
        text = newlines_as_lf(read_gold_text(os.path.join(folder, file_name), file_name))
        store.declare(article)
        if not _all_rows_name(text, article):
            file_problems.add("", "a row names another article than the file name")
        else:
            parse_lines(text.split("\n"), store, file_problems, lengths, False)
        if file_problems:
            file_problems.filename = "%s/%s" % (GOLD_FOLDER, file_name)
            file_problems.raise_as_reference_error()
    problems.raise_as_reference_error()
    return store, lengths


def _all_rows_name(text: str, article: str) -> bool:
    """Whether every row of a gold file names ``article`` (rows have three TABs each).

    The one-count shortcut is kept while flc x10's time/floor sits on its target of 3: without
    it the issue-21 pairs measured 2.88 -> 2.97 and 2.92 -> 2.96 (B/A 1.03, 1.01; 0.98, 1.01).
    Whole benchmarks of the final issue-21 main gave 2.96 and 3.03 without it, 3.00 with it: the
    run-to-run noise is as large as its gain. After the start-up fix (scorer/groups.py), six
    alternated runs of the benchmark's flc x10 measure: median 2.96 with it, 2.99 without (the
    whole benchmark: 2.89 with it). Its equivalence test: tests/test_fast_paths.py."""
    if ("\n" + text).count("\n" + article + "\t") * 3 == text.count("\t"):
        return True  # the common case, decided without a loop over the lines
    return all(line.split("\t", 1)[0].strip() == article for line in text.split("\n") if "\t" in line)


def read_submission(path: str, name: str, options: Options, lengths: Dict[str, int],
                    problems: Problems, max_articles: int) -> SpanStore:
    """The submitted spans; reading stops at more articles than ``record_limit(max_articles)``."""
    predicted = SpanStore(TECHNIQUES)
    max_articles = record_limit(max_articles)
    for first_line, block in text_blocks(path, name, options.max_file_bytes):  # 1 MiB at a time
        if problems.saturated:
            break
        parse_block(block, first_line, predicted, problems, lengths, False, submitted=True)
        if len(predicted.order) > max_articles:
            problems.add("line %d and before" % (first_line + block.count("\n")),
                         "more than %d article ids, but this phase has far fewer articles" % max_articles)
            break
    for article in predicted.order:
        if predicted.count(article) > options.max_spans_per_document:
            problems.add("article %s" % clip(article), "%d spans; at most %d per article are accepted"
                         % (predicted.count(article), options.max_spans_per_document))
    return predicted


def score(gold_path: str, submission_path: str, name: str, options: Options,
          reference_dir: str) -> TrackResult:
    with reading_reference():
        gold, lengths = read_gold(gold_path)
    problems = Problems(name)
    predicted = read_submission(submission_path, name, options, lengths, problems, len(gold.order))
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
    statistics = _statistics(gold, predicted, unknown, options, problems)
    problems.raise_if_any()
    collapse = options.flc_ignore_techniques
    result = span_track_result(NAME, TITLE, statistics, () if collapse else TECHNIQUES,
                               options.per_technique_recall == "official", "article")
    if collapse:
        result.notes.append("Fragments only: techniques are ignored (official -f mode).")
    result.warnings.extend(problems.warnings)
    result.item_view = _item_view(gold_path, gold, predicted)
    return result


def _item_view(gold_path: str, gold: SpanStore, predicted: SpanStore) -> Callable[[str], ItemView]:
    """Local error analysis only: an article's text (when the gold folder has it) and spans."""
    def view(article: str) -> ItemView:
        text_path = os.path.join(gold_path, "article%s.txt" % article)
        text = read_gold_text(text_path, os.path.basename(text_path)) if os.path.isfile(text_path) else None
        return ItemView(text, _flat(gold.by_technique(article)) if article in gold else [],
                        _flat(predicted.by_technique(article)) if article in predicted else [])
    return view


def _flat(spans: Mapping[str, List[Span]]) -> List[Tuple[str, int, int]]:
    return [(technique, start, end) for technique, group in spans.items() for start, end in group]


def _statistics(gold: SpanStore, predicted: SpanStore, unknown: List[str], options: Options,
                problems: Problems) -> SpanStatistics:
    """Per article (gold order) and technique, the span statistics; overlapping predictions are
    problems under the "error" policy (reported in submission order), and then, as after any
    problem, statistics are no longer computed."""
    collapse = options.flc_ignore_techniques
    policy = options.overlapping_predictions
    statistics = SpanStatistics(() if collapse else TECHNIQUES,
                                confusions=options.detailed_results == "full" and not collapse)
    overlapping: List[Tuple[str, List[Overlap]]] = []
    for article in gold.order + unknown:
        checked: Mapping[str, List[Span]] = {}
        if article in predicted:
            spans = ({ALL_TECHNIQUES: predicted.all_spans(article)} if collapse
                     else predicted.by_technique(article))
            checked, overlaps = predictions_under_policy(spans, policy)
            if overlaps:
                overlapping.append((article, overlaps))
        if not problems and not overlapping:
            if collapse:
                merged, by_start = {ALL_TECHNIQUES: merge_overlapping(gold.all_spans(article))}, None
            else:
                merged, by_start = gold.merged_and_by_start(article)
            statistics.add_document(article, merged, checked, policy != "keep", by_start, gold)
    if overlapping:
        place = {article: i for i, article in enumerate(predicted.order)}
        for article, overlaps in sorted(overlapping, key=lambda item: place[item[0]]):
            for overlap in overlaps:
                problems.add("article %s" % clip(article), overlap_problem(overlap))
    return statistics


# The scores from the totals of the per-item statistics (a row per article: the four sums of each
# technique; ``span_metric``).
aggregate = span_metric.aggregate


def reference_data_problem(folder: str) -> str:
    """What the build says when a phase's FLC gold lacks the article texts ("" when they are there):
    the texts are the track's public input, so participants would get only the article ids."""
    gold, tsv = os.path.join(folder, GOLD_FOLDER), os.path.join(folder, FILE_NAME)
    if os.path.isdir(gold):
        articles = [m.group(1) for m in map(_GOLD_FILE.match, sorted(os.listdir(gold))) if m]
        missing = [a for a in articles if not os.path.isfile(os.path.join(gold, "article%s.txt" % a))]
        if missing:
            return ("%s: %d of the %d articles have no article<ID>.txt text (the first: article%s.txt): participants "
                    "would get no text for them (the public data is the texts) and the sample submission no spans; "
                    "put the task's article texts beside the .labels files" % (gold, len(missing), len(articles),
                                                                            missing[0]))
    elif os.path.isfile(tsv):
        return ("%s holds no article texts: participants would get only the article ids; give the gold as the "
                "folder %s/ with the task's article<ID>.txt texts beside the .labels files" % (tsv, GOLD_FOLDER))
    return ""


# --- the public side (bundle build, starting kit): the inputs without the answers ---------------

ARTICLE_LIST = "articles.txt"  # in the public folder: every article id of the phase, one a line


def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    """``nlp4if2019_flc/``: the article texts of the gold folder and ``articles.txt``."""
    import shutil
    from ..public_input import write_text
    folder, tsv = os.path.join(gold_dir, GOLD_FOLDER), os.path.join(gold_dir, FILE_NAME)
    articles: List[str] = []
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            match = _GOLD_FILE.match(name)
            if match:
                articles.append(match.group(1))
                text = os.path.join(folder, "article%s.txt" % match.group(1))
                if os.path.isfile(text):
                    os.makedirs(os.path.join(public_dir, GOLD_FOLDER), exist_ok=True)
                    shutil.copyfile(text, os.path.join(public_dir, GOLD_FOLDER, "article%s.txt" % match.group(1)))
    elif os.path.isfile(tsv):
        with open(tsv, encoding="utf-8-sig") as handle:
            for line in handle:
                article = line.split("\t")[0].strip()
                if article and article not in articles:
                    articles.append(article)
    else:
        return []
    write_text(os.path.join(public_dir, GOLD_FOLDER, ARTICLE_LIST), "".join(a + "\n" for a in articles))
    return [GOLD_FOLDER + "/"]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    path = os.path.join(public_dir, GOLD_FOLDER, ARTICLE_LIST)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


def is_public_input(folder: str) -> bool:
    """Whether ``folder`` holds this track's public input (the article list), which gold never has:
    ``score_locally.py`` tells a participant who passed ``public_data/`` as the gold."""
    return os.path.isfile(os.path.join(folder, GOLD_FOLDER, ARTICLE_LIST))


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    """A gold folder of empty ``.labels`` files, one per article, with the texts (they bound the
    offsets)."""
    import shutil
    articles = public_ids(public_dir, filename)
    if articles is None:
        return []
    target = os.path.join(gold_dir, GOLD_FOLDER)
    os.makedirs(target, exist_ok=True)
    for article in articles:
        open(os.path.join(target, "article%s.task-FLC.labels" % article), "w").close()
        text = os.path.join(public_dir, GOLD_FOLDER, "article%s.txt" % article)
        if os.path.isfile(text):
            shutil.copyfile(text, os.path.join(target, "article%s.txt" % article))
    return [filename]


# Technique frequencies of the NLP4IF-2019 training gold (350 articles), in TECHNIQUES order.
TRAINING_FREQUENCIES = (116, 239, 13, 109, 201, 490, 479, 240, 2115, 1085, 11, 33, 54, 571, 136, 13, 79, 57)


def random_flc_spans(articles: Dict[str, str], seed: int = 42) -> List[tuple]:
    """The baseline: a third of the sentences, at random, as spans; techniques drawn with the
    training frequencies. One span per chosen sentence, so spans never overlap."""
    import random
    rng = random.Random(seed)
    rows = []
    for article, text in articles.items():
        sentences = [m.span() for m in re.finditer(r"[^.!?\n]+[.!?]?", text) if m.group().strip()]
        wanted = max(1, len(sentences) // 3) if sentences else 0
        for start, end in sorted(rng.sample(sentences, min(wanted, len(sentences)))):
            while start < end and text[start].isspace():
                start += 1
            if start < end:
                technique = rng.choices(TECHNIQUES, weights=TRAINING_FREQUENCIES)[0]
                rows.append((article, technique, start, end))
    return rows


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    from ..public_input import write_text
    articles = public_ids(public_dir, filename)
    if articles is None:
        return []
    texts = {}
    for article in articles:
        path = os.path.join(public_dir, GOLD_FOLDER, "article%s.txt" % article)
        texts[article] = ""
        if os.path.isfile(path):
            with open(path, encoding="utf-8-sig") as handle:
                texts[article] = handle.read()
    write_text(os.path.join(out_dir, filename),
               "".join("%s\t%s\t%d\t%d\n" % row for row in random_flc_spans(texts, seed)))
    return [filename]


# --- sample gold and benchmark inputs (tools/make_sample_data.py, benchmarks/run.py) -------------


# (sentence, technique) pieces from which sample articles are assembled; None = no technique.
SAMPLE_SENTENCES = (
    ("The council met on Tuesday to discuss the new budget.", None),
    ("Critics called the plan an outrageous betrayal of hard-working families.", "Loaded_Language"),
    ("The mayor, a notorious puppet of the developers, refused to comment.", "Name_Calling,Labeling"),
    ("Experts from the national academy endorsed the proposal.", "Appeal_to_Authority"),
    ("If the plan passes, our children will have no future at all.", "Appeal_to_fear-prejudice"),
    ("Everybody in the region already supports the reform.", "Bandwagon"),
    ("You are either with the taxpayers or against them.", "Black-and-White_Fallacy"),
    ("Unemployment rose only because of the new bridge.", "Causal_Oversimplification"),
    ("Can anyone really trust these numbers?", "Doubt"),
    ("This is the greatest scandal the town has ever seen.", "Exaggeration,Minimisation"),
    ("Patriots must defend the values of our nation.", "Flag-Waving"),
    ("The report was long and its conclusions were vague in every possible way.",
     "Obfuscation,Intentional_Vagueness,Confusion"),
    ("Meanwhile, the weather was unusually warm this week.", "Red_Herring"),
    ("Such methods were also used by the Nazis.", "Reductio_ad_hitlerum"),
    ("Betrayal, betrayal, betrayal: that is all we get.", "Repetition"),
    ("Stop the steal of our streets!", "Slogans"),
    ("So the opposition wants to abolish all roads.", "Straw_Men"),
    ("That is just how things are, end of discussion.", "Thought-terminating_Cliches"),
    ("And what about the previous mayor's expenses?", "Whataboutism"),
    ("Residents can read the full text of the budget online.", None),
    ("The vote is expected next month.", None),
)
SAMPLE_ARTICLES = 24  # per split


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: a gold folder of articles (texts and ``.labels`` files) with
    spans of different techniques overlapping, and articles without propaganda."""
    from ..public_input import write_text
    from ..sample_text import first_id, sample_rng
    rng = sample_rng(seed, NAME, split)
    target = os.path.join(folder, GOLD_FOLDER)
    base = 700000000 + first_id(split) * 1000
    for n in range(SAMPLE_ARTICLES):
        article = str(base + 37 * n)
        sentences = rng.sample(SAMPLE_SENTENCES, rng.randint(4, 9))
        if n % 6 == 2:
            sentences = [s for s in sentences if s[1] is None] or [SAMPLE_SENTENCES[0]]
        text, spans = "Local news\n\n", []
        for sentence, technique in sentences:
            start = len(text)
            text += sentence + " "
            if technique:
                spans.append((technique, start, start + len(sentence)))
                if technique != "Loaded_Language" and rng.random() < 0.3:  # cross-technique overlap
                    spans.append(("Loaded_Language", start, start + sentence.index(" ", 6)))
        write_text(os.path.join(target, "article%s.txt" % article), text.rstrip() + "\n")
        write_text(os.path.join(target, "article%s.task-FLC.labels" % article),
                   "".join("%s\t%s\t%d\t%d\n" % (article, t, s, e) for t, s, e in spans))
    return [GOLD_FOLDER + "/"]


BENCHMARK = {"time_target": True, "oracle": "spans"}


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold in ``ref/`` and a submission in ``res/``; ×1 ≈ the NLP4IF training set: 350 articles,
    ~6k gold and ~5k predicted spans (each gold span found with 80% chance, shifted a little, 20%
    of them with another technique; plus false alarms)."""
    ref = os.path.join(input_dir, "ref", GOLD_FOLDER)
    os.makedirs(ref)
    predictions = []
    for a in range(350 * scale):
        article = str(700000000 + a)
        length = rng.randint(1500, 9000)
        gold = []
        for _ in range(max(0, int(rng.gauss(17, 9)))):
            start = rng.randrange(0, length - 200)
            gold.append((rng.choice(TECHNIQUES), start, start + rng.randint(3, 180)))
        kept, last_end = [], {}  # type: List[Tuple[str, int, int]], Dict[str, int]
        for technique, start, end in sorted(gold):  # no same-technique overlap, as in the real gold
            if start >= last_end.get(technique, -1):
                kept.append((technique, start, end))
                last_end[technique] = end
        with open(os.path.join(ref, "article%s.task-FLC.labels" % article), "w", encoding="utf-8") as handle:
            handle.writelines("%s\t%s\t%d\t%d\n" % (article, t, s, e) for t, s, e in kept)
        last_end = {}
        guesses = list(kept) + [(rng.choice(TECHNIQUES), start, start + rng.randint(3, 120))  # false alarms
                                for start in (rng.randrange(0, length - 200) for _ in range(rng.randint(0, 6)))]
        for technique, start, end in sorted(guesses):
            if rng.random() < 0.8:
                start = max(0, start + rng.randint(-15, 15))
                end = max(start + 1, end + rng.randint(-15, 15))
                if rng.random() < 0.2:
                    technique = rng.choice(TECHNIQUES)
                if start >= last_end.get(technique, -1):
                    predictions.append((article, technique, start, end))
                    last_end[technique] = end
    with open(os.path.join(input_dir, "res", FILE_NAME), "w", encoding="utf-8") as handle:
        handle.writelines("%s\t%s\t%d\t%d\n" % row for row in predictions)
