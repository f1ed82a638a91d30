"""What a track module declares: the contract between ``scorer/tracks/<name>.py`` and everything else.

A track is one module (and its metric card, ``<name>.md`` beside it). It declares the values and
functions below; the registry (``registry.py``) lists the modules, and ``Track`` is the one view
the program, the build, the starting kit, the results tool and the benchmark have of a module.
Nothing else reads a track module's attributes (``tests/test_architecture.py``), so a default is
decided here, once, and a module missing a required declaration is one error naming both. The
rules below are what the tests that follow the registry (``pytest -m registry``) check of every
track; a failure names the module and the rule.

A track whose concerns fill several files is a package, ``scorer/tracks/<name>/``: its
``__init__.py`` is the track module (it makes the declarations, importing those its own modules
hold), its card stays ``scorer/tracks/<name>.md``, beside the folder, and its modules import each
other but never another track.

Values
------
NAME : str, required
    The track's name: its leaderboards, outputs, signature and page anchor; the module's own name.
TITLE : str, required
    One line: the task and what is predicted.
FILE_NAME : str, required
    The submission file in ``res/`` (a zip's top level or one folder down). Files are recognised by
    these names only, never by their extension: ``score.py``, ``check_format.py`` and
    ``score_locally.py`` share ``submission.locate_submission``, which ignores any other file (a
    ``README.txt`` beside a ``*.txt`` track's file) and calls a file meant for a track (then
    ``check_format.py`` exits 1) only when its name is near the track's (``found task2.json; expected
    ..._st2.json``): a subtask number, or a stem (the name before the extension) within the track's
    or near it (``difflib`` ratio 0.5). So its stem is not near ``README`` or ``notes``, which
    participants put beside their files. The track's file names (this one, ``GOLD_NAMES``,
    ``TEST_INPUT``, those of ``reference_data_extras``) are written in its module only: no other
    code, page or ``README.md`` holds one in a string (``tests/test_track_ownership.py``).
GOLD_NAMES : tuple of str, required
    What the track reads in ``ref/``: the first that exists (a file or a folder).
KEYS : tuple of str, required
    Its leaderboard keys, primary first. ``competition.yaml`` gives their labels, order and
    precision; the build refuses a key without a column or a column without a key. The scale: a
    score is a fraction in [0, 1] (an F1 of 0.5, never 50), except a key of ``LOWER_IS_BETTER``,
    an error >= 0 in the task's own unit (absita's RMSE). The paper's LaTeX table of a board shows
    two other keys of its track beside its own; results.md and the CSV show them all.
LOWER_IS_BETTER : frozenset of str, default empty
    The keys ranked ascending (``sort: asc`` in ``competition.yaml``).
LEADERBOARDS : tuple of (name, key), required
    The rankings of the organisers' results (confidence intervals, ranks, significance), the first
    named after the track on its primary key, ``(NAME, KEYS[0])``; each name is one track's only.
    The detailed results mark their keys as ranked.
POOLED_KEYS : tuple of str, default empty
    The keys that depend on the sums over techniques only (not a macro average): the results tool
    may pool the techniques before resampling (the same numbers, a product 20 times smaller).
TECHNIQUES : tuple of str, default empty
    The technique (class) list, in the track's order: per-technique tables and figures, and the
    starting kit's README lists the exact strings.
SETTINGS : tuple of str, default empty
    The ``Options`` fields (``scoring_config.json``) that change what the track computes: its
    signature (``signature.py``).
SETTING_DEFAULTS : dict of setting -> value, default empty
    The track's own default of a setting, where no settings file gives one (``Options.for_track``):
    one span track may merge overlapping predictions by default while another refuses them.
RELEASED_GOLD : dict of split -> name, default empty
    The gold as the task released it, per split (file or folder names, found anywhere under
    ``score_locally.py --ref``): a participant can score against the downloaded data as it is.
TEST_INPUT : str or None, default None
    A file the track may also read in ``ref/`` beside its gold (nlu: the released test input,
    with the ids the gold leaves unscored).
GROUP_TABLES : tuple of tables, default empty
    The detailed results' tables by group (Development page): each (title, dimension, groups,
    (label, column) counts shown, score keys, note). The statistics hold each group's copy of the
    item's columns, ``<column>|<dimension>:<group>``; per group, ``groups.group_tables`` puts
    those totals in place of the item's and runs ``aggregate`` (absita: ABSA per polarity).
ITEM_ERROR : str, default ''
    What ``item_error`` measures, in words, for the error analysis page; declared with ``item_error``
    (one without the other is a ``ContractError``).
BENCHMARK : dict, default empty
    How ``benchmarks/run.py`` measures the track: ``"scales"`` (the multiples of the task's size it allows; default all), ``"oracle"``
    (the naive oracle it is timed against: ``"spans"``, for a gold folder of ``article<ID>...labels``
    files or a JSON list of ``{"id", "labels": [{"technique", "start", "end"}]}`` records, read by
    the track's ``GOLD_NAMES`` and ``FILE_NAME``; or ``"lcs"``, nlu's CSV), ``"slow"`` (few generated
    submissions in the resampling step). Every track meets the same targets (``benchmarks/run.py``).

Functions
---------
score(gold_path, submission_path, file_name, options, reference_dir) -> TrackResult, required
    Read, check and score one submitted file against the gold. Raises ``SubmissionError`` (the
    file is refused: problem lines naming file, record and field) or ``ReferenceDataError``. Its
    product is the per-item statistics (``result.statistics``: one row of sufficient statistics per
    item, meme, article, id or review, the resampling unit, in the gold's item order; ``per_item.py``;
    given as a function that builds them when a track never needs the rows itself), with the few
    facts that are not per item (warnings, counts of skipped rows). The headline scores are
    ``aggregate`` of their column totals (summed while scoring, or ``per_item.column_totals``).
    The result's score keys must be among the track's ``KEYS`` (a track may leave out the keys of
    what was not submitted, as absita's subtasks): a key that is not, or no key at all, is one
    ``ContractError`` naming the module and both sets of keys (the file is then not scored; never
    -1 and exit 0). ``result.item_view`` (optional; item id -> ``result.ItemView``: the item's gold
    and predictions, or marked texts) is what the local error analysis (``score.py --items``) shows
    of the worst items; a result without one has its worst items listed by id, with a note naming
    the track. A submission made for another phase's inputs is named as such by its first problem
    line (``records.other_phase_line`` with ``options.other_phase_ids``, as ``records.check_id_sets``
    does). A track whose items have no ids (positional: an item per line or block, in the public
    input's order) checks them by what its predictions carry: their inputs (CoNLL tokens) with
    ``records.check_item_sequence``, which compares the ``records.content_id`` of each submitted
    item's input with those of ``public_ids``; nothing else (a hypothesis per source line) with
    ``records.check_item_count`` and ``options.other_phase_counts``: a count that is another
    phase's is named as such, and where another phase has as many items, whose predictions would be
    scored here, the note it returns goes in ``result.notes`` (the detailed results page shows it).
aggregate(statistics, totals, ops, key=None) -> dict, required
    The scores from the column totals of any selection of items. It computes only with the
    operations of ``ops`` (``ops.divide``, ``ops.where``, ``ops.sqrt``, ``ops.mean``) and with
    ``+ - * /`` and comparisons combined by ``&``: the totals are numbers (``ScalarOps``) or numpy
    arrays of resamples (``ranking.statistics.ArrayOps``), and both must pass through (no
    ``if``, ``and``, ``max`` or ``float()`` on a total). ``key``: only that score is needed (a hint).
    It reads a total only as ``totals[column]`` and never branches on one, so one call on any totals
    tells the columns a score reads (the resamples sum only those: ``scorer/outputs/resampling.py``).
write_public_input(gold_dir, public_dir, filename) -> list of str, required
    The phase's inputs without the answers (what the build publishes), from ``gold_dir`` (the
    phase's ``ref/``, every track's gold); the names written, relative to ``public_dir`` (a folder
    with a trailing ``/``), [] without the track's gold. A track's Test texts are looked for in
    these files (``tests/test_release.py``: none in what participants get before the Test phase).
public_ids(public_dir, filename) -> list of str or None, required
    The ids of those inputs, in order (None: the track has no public input there); a track without
    ids gives each item's ``records.content_id`` (a digest of its public input, e.g. a sentence's tokens).
write_stand_in_gold(public_dir, gold_dir, filename) -> list of str, required
    A gold with the public inputs' ids and no answers, for ``check_format.py``, that ``find_gold``
    finds in ``gold_dir``. ``gold_dir`` may not exist yet: ``Track`` creates it before the call.
write_baseline(public_dir, out_dir, filename, seed=42, variant="random") -> list of str, required
    The starting kit's baseline submission from the public inputs: a file the track scores (on both
    phases' sample gold; the registry tests score it).
write_sample_gold(folder, split, seed) -> list of str, required
    The repository's sample gold (``tools/make_sample_data.py``, committed in ``reference_data/``):
    each split's own items, with texts of their own (the Test texts above) and, where only the count
    tells a phase's predictions from another's (``records.check_item_count``), a count of their own.
write_benchmark_input(input_dir, scale, rng) -> None, required
    A gold in ``ref/`` and a submission in ``res/`` at ``scale`` times the real data's size, which
    the track scores (with ``reference_data_extras`` beside the gold).
reference_data_problem(folder) -> str, default: never a problem
    What the build says a phase's reference data lacks ('' when nothing), e.g. nlu's test input.
item_error(totals) -> float or None, default: none
    The local error analysis's error of one item from the totals of its one row (worst first),
    for a track that is neither a span track nor a multilabel track (those are ordered by their
    unmatched span mass, or false positives + false negatives); with ``ITEM_ERROR``. Without
    it, such a track's items are not ranked, and the page says so.
is_public_input(folder) -> bool, default: never
    Whether ``folder`` holds this track's public inputs rather than gold (``score_locally.py``
    tells a participant who passed the public data as gold).
reference_data_extras(gold_dir) -> dict of name -> bytes, default: none
    Files the build adds to a phase's reference data beside the gold, made from it (nlu: the
    gold's tokens, so that a platform run does not tokenize the gold); never read from ``res/``.
in_memory_scores(gold_path, submission_path, file_name) -> dict or None, default: none
    The scores of the in-memory entry point the metric card names for a notebook (e.g.
    ``span_metric.span_scores``, ``multilabel.multilabel_scores``), on the documents the track's
    own readers read from the files: the card's worked example must give its printed numbers this
    way too (``tests/test_metric_cards.py``). None: the card names no in-memory entry point.
prediction_digests(submission_path, file_name, options) -> dict of item id -> bytes, default: the bytes
    What a submitted file predicts for each item, as ``item_digests.digest`` of a canonical form
    that keeps only what the scorer reads (the reader's values: no key order, white space, extra
    field, record order, BOM or line ending), for the organisers' copy detection
    (``ranking/copies.py``); ``options`` as the track computes with them (``Track.options``). The
    shared machinery gives each family's (``meme_multilabel``, ``article_folder``,
    ``item_digests.span_digests``). A track that declares none is compared by its files' bytes
    (``item_digests.file_digest``: the whole file one item), so a copy with a BOM or another
    record order is missed: the registry's tests ask every track of this repository for its own
    (``tests/test_rank_copies.py``: more than one item; a BOM and CRLF line ends change no digest
    when they change no score, and some digest when they do; two generated submissions differ on
    some item).

Shared aggregates
-----------------
A track may take its ``aggregate`` (and its result) from the shared machinery; its ``KEYS`` are
then what that machinery names its scores:

- ``span_metric.aggregate`` and ``span_track_result``: ``span_metric.span_keys(NAME)``, that is
  ``<NAME>_f1``, ``<NAME>_precision``, ``<NAME>_recall`` (the prefix is the track's ``NAME``);
- ``meme_multilabel.score_multilabel`` and ``multilabel.aggregate``: ``multilabel.multilabel_keys(NAME)``,
  that is ``<NAME>_f1_micro``, ``<NAME>_f1_macro``.

Keep imports that cost start-up time (a tokenizer, for instance) inside the functions that need
them: the registry imports every track module on every run. A track module is the standard library
only, on Python 3.7-3.13 (``from __future__ import annotations``; its numbers and pages the same on
each), except through ``scorer/machinery/nltk_tokens.py`` (nltk 3.7, which the tests then give it).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any, Callable, Dict, FrozenSet, Optional, Tuple

from ..machinery.item_digests import file_digest
from ..readers.options import Options

REQUIRED = object()  # the default of a declaration every module must make


def _never_a_problem(folder: str) -> str:
    return ""


def _never_public_input(folder: str) -> bool:
    return False


def _no_item_error(totals: Dict[str, Any]) -> None:
    return None


def _no_extras(gold_dir: str) -> Dict[str, bytes]:
    return {}


def _no_in_memory_scores(gold_path: str, submission_path: str, file_name: str) -> None:
    return None


class Declaration:
    """One declaration of the contract: the module's attribute ``name``, the ``Track`` attribute
    it becomes (``view``), the types it may have, and its default (``REQUIRED``: none)."""

    __slots__ = ("name", "view", "types", "default", "convert")

    def __init__(self, name: str, view: str, types: Tuple[type, ...], default: Any = REQUIRED,
                 convert: Optional[Callable[[Any], Any]] = None) -> None:
        self.name, self.view, self.types, self.default, self.convert = name, view, types, default, convert


FUNCTION = ()  # the types of a function declaration: any callable

# Every declaration, in the order of the docstring above (which is the contract's text).
DECLARATIONS: Tuple[Declaration, ...] = (
    Declaration("NAME", "name", (str,)),
    Declaration("TITLE", "title", (str,)),
    Declaration("FILE_NAME", "filename", (str,)),
    Declaration("GOLD_NAMES", "gold_names", (tuple, list), convert=tuple),
    Declaration("KEYS", "keys", (tuple, list), convert=tuple),
    Declaration("LOWER_IS_BETTER", "lower_is_better", (frozenset, set, tuple), (), frozenset),
    Declaration("LEADERBOARDS", "leaderboards", (tuple, list), convert=lambda value: tuple(map(tuple, value))),
    Declaration("POOLED_KEYS", "pooled_keys", (tuple, list, frozenset), (), frozenset),
    Declaration("TECHNIQUES", "techniques", (tuple, list), (), tuple),
    Declaration("SETTINGS", "settings", (tuple, list), (), tuple),
    Declaration("SETTING_DEFAULTS", "setting_defaults", (dict,), {}, dict),
    Declaration("RELEASED_GOLD", "released_gold", (dict,), {}, dict),
    Declaration("TEST_INPUT", "test_input", (str, type(None)), None),
    Declaration("GROUP_TABLES", "group_tables", (tuple, list), (), tuple),
    Declaration("ITEM_ERROR", "item_error_measure", (str,), ""),
    Declaration("BENCHMARK", "benchmark", (dict,), {}, dict),
    Declaration("score", "score", FUNCTION),
    Declaration("aggregate", "aggregate", FUNCTION),
    Declaration("write_public_input", "write_public_input", FUNCTION),
    Declaration("public_ids", "public_ids", FUNCTION),
    Declaration("write_stand_in_gold", "write_stand_in_gold", FUNCTION),
    Declaration("write_baseline", "write_baseline", FUNCTION),
    Declaration("write_sample_gold", "write_sample_gold", FUNCTION),
    Declaration("write_benchmark_input", "write_benchmark_input", FUNCTION),
    Declaration("reference_data_problem", "reference_data_problem", FUNCTION, _never_a_problem),
    Declaration("item_error", "item_error", FUNCTION, _no_item_error),
    Declaration("is_public_input", "is_public_input", FUNCTION, _never_public_input),
    Declaration("reference_data_extras", "reference_data_extras", FUNCTION, _no_extras),
    Declaration("in_memory_scores", "in_memory_scores", FUNCTION, _no_in_memory_scores),
    Declaration("prediction_digests", "prediction_digests", FUNCTION, file_digest),
)


class ContractError(Exception):
    """A track module breaks the contract (a bug of the module, found when the registry loads it)."""


class Track:
    """A track module's declarations, as the rest of the program uses them (attributes named by
    ``DECLARATIONS``' ``view``: ``name``, ``filename``, ``keys``, ``score``, ...), with the
    contract's defaults filled in; ``card_path``, the metric card beside the module (or the
    package's folder); ``module_path``, the module's file (a package's ``__init__.py``); and
    ``source_paths``, every Python file of the track (the module, or the package's modules)."""

    name: str
    title: str
    filename: str
    gold_names: Tuple[str, ...]
    keys: Tuple[str, ...]
    lower_is_better: FrozenSet[str]
    leaderboards: Tuple[Tuple[str, str], ...]
    pooled_keys: FrozenSet[str]
    techniques: Tuple[str, ...]
    settings: Tuple[str, ...]
    setting_defaults: Dict[str, Any]
    released_gold: Dict[str, str]
    test_input: Optional[str]
    group_tables: Tuple[tuple, ...]
    item_error_measure: str
    benchmark: Dict[str, Any]
    score: Callable
    aggregate: Callable
    write_public_input: Callable
    public_ids: Callable
    write_stand_in_gold: Callable
    write_baseline: Callable
    write_sample_gold: Callable
    write_benchmark_input: Callable
    reference_data_problem: Callable[[str], str]
    item_error: Callable[[Dict[str, Any]], Optional[float]]
    is_public_input: Callable[[str], bool]
    reference_data_extras: Callable[[str], Dict[str, bytes]]
    in_memory_scores: Callable[[str, str, str], Optional[Dict[str, float]]]
    prediction_digests: Callable[[str, str, Options], Dict[str, bytes]]
    module_name: str
    module_path: str
    card_path: str
    source_paths: Tuple[str, ...]

    def __init__(self, module: ModuleType) -> None:
        where = module.__name__.rsplit(".", 1)[-1]
        for declaration in DECLARATIONS:
            value = getattr(module, declaration.name, declaration.default)
            if value is REQUIRED:
                raise ContractError("track module %s: missing the required declaration %s (scorer/tracks/contract.py)"
                                    % (where, declaration.name))
            if not (callable(value) if declaration.types == FUNCTION else isinstance(value, declaration.types)):
                raise ContractError("track module %s: %s is a %s, not what scorer/tracks/contract.py declares"
                                    % (where, declaration.name, type(value).__name__))
            if declaration.convert is not None:
                value = declaration.convert(value)
            setattr(self, declaration.view, value)
        if not all(key in self.keys for _, key in self.leaderboards):
            raise ContractError("track module %s: a key of LEADERBOARDS is not in KEYS" % where)
        if (self.item_error is _no_item_error) != (not self.item_error_measure):
            raise ContractError("track module %s: item_error and ITEM_ERROR go together (an item's error and what it "
                                "measures, in words); declare both or neither" % where)
        unknown = sorted(set(self.setting_defaults) - set(self.settings))
        if unknown:
            raise ContractError("track module %s: SETTING_DEFAULTS gives %s, not in its SETTINGS"
                                % (where, ", ".join(unknown)))
        self.module_name = where
        self.score = self._checked(self.score)
        self.write_stand_in_gold = self._into_new_folder(self.write_stand_in_gold)
        self.module_path = module.__file__
        folder, file_name = os.path.split(module.__file__)
        if file_name == "__init__.py":  # a package track
            self.card_path = folder + ".md"
            self.source_paths = tuple(os.path.join(folder, name) for name in sorted(os.listdir(folder))
                                      if name.endswith(".py"))
        else:
            self.card_path = os.path.splitext(module.__file__)[0] + ".md"
            self.source_paths = (module.__file__,)


    def options(self, options: Options) -> Options:
        """``options`` as this track computes with them: its ``SETTING_DEFAULTS`` where no value was given.

        Parameters
        ----------
        options : Options
            The phase's settings (``options.load_options``).

        Returns
        -------
        Options
        """
        return options.for_track(self.setting_defaults)

    def _checked(self, score: Callable) -> Callable:
        """The module's ``score`` with this track's settings, its result's keys checked against ``KEYS``."""
        def checked_score(gold_path: str, submission_path: str, file_name: str, options: Options,
                          reference_dir: str) -> Any:
            result = score(gold_path, submission_path, file_name, self.options(options), reference_dir)
            if not result.scores or not set(result.scores) <= set(self.keys):
                raise ContractError("track module %s: its scores' keys (%s) are not among its KEYS (%s); give the "
                                    "track the keys its aggregate names (scorer/tracks/contract.py, \"Shared aggregates\")"
                                    % (self.module_name, ", ".join(sorted(result.scores)), ", ".join(self.keys)))
            return result
        checked_score.__doc__ = score.__doc__
        return checked_score

    @staticmethod
    def _into_new_folder(write: Callable) -> Callable:
        """The module's ``write_stand_in_gold``, its ``gold_dir`` created first (with its parents)."""
        def write_into(public_dir: str, gold_dir: str, filename: str) -> Any:
            os.makedirs(gold_dir, exist_ok=True)
            return write(public_dir, gold_dir, filename)
        write_into.__doc__ = write.__doc__
        return write_into

    def find_gold(self, reference_dir: str) -> Optional[str]:
        """The track's gold in a phase's reference data.

        Parameters
        ----------
        reference_dir : str
            The phase's ``ref/`` folder.

        Returns
        -------
        str or None
            The path of the first of ``gold_names`` there (a file or a folder); None: the phase has
            no gold for the track.
        """
        for name in self.gold_names:
            path = os.path.join(reference_dir, name)
            if os.path.exists(path):
                return path
        return None

    def __repr__(self) -> str:
        return "Track(%r)" % self.name
