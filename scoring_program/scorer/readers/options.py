"""Per-competition settings of the scoring program.

Organisers set them in ``scoring_program/scoring_config.json`` (all phases) and may override
them per phase with a ``scoring_config.json`` in that phase's reference data. Unknown keys are an
error, so a misspelt setting never silently does nothing.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List

from .problems import ReferenceDataError

CONFIG_NAME = "scoring_config.json"
# Written by the build into each phase's reference data: the public item ids of the other phases
# ({phase label: {submission file name: [ids]}}), so that predictions for another phase's inputs
# are named as such (ids are public).
OTHER_PHASES = "other_phases.json"


DEFAULTS: Dict[str, Any] = {
    "overlapping_predictions": "error", "per_technique_recall": "correct", "flc_ignore_techniques": False,
    "max_file_bytes": 200 * 1024 * 1024, "nlu_max_answer_tokens": 5000, "max_spans_per_document": 10000,
    "detailed_results": "full", "interval_resamples": 0, "blind": False,
}


class Options:
    """The effective settings (defaults, then the program's file, then the phase's)."""

    # Predicted spans of one technique that overlap in one document (both span tracks):
    # "error" (the NLP4IF scorer without -m), "merge" into their union (with -m), or "keep" them
    # all, as the SemEval-2021 ST2 scorer does (each overlap then counts again: recall can pass 1).
    overlapping_predictions: str
    # Per-technique tables: "correct" recall (recall sum / gold count) or "official", the
    # published scorers' variant that divides the *precision* sum by the gold count.
    per_technique_recall: str
    # FLC only: ignore techniques (the official -f "fragments only" mode).
    flc_ignore_techniques: bool
    # The largest submitted file read, in bytes.
    max_file_bytes: int
    # nlu: the longest answer (q' or r'), in tokens, when the test input is not in ref/.
    nlu_max_answer_tokens: int
    # The most spans one document may have in a submission (per track).
    max_spans_per_document: int
    # What detailed_results.html shows: "full" aggregates (counts, per-technique tables, notes)
    # or the leaderboard "scores" only. Set per phase (the build writes it into the phase's
    # reference data): full in Development, scores only in the Post-Evaluation phase by default.
    detailed_results: str
    # With "full": each ranking score's 95% bootstrap interval from this many resamples of the
    # items (seed 0, as score_locally.py draws them); 0: none. They cost pure-Python time, so only
    # a phase that asks pays it: 1000 in Development by default (phase_settings/dev.json).
    interval_resamples: int
    # A blind phase (the Evaluation phase of a shared task): the submission is read and checked as
    # in every other phase, against the phase's public inputs only, and no output holds a score
    # (``blind.py``). Set per phase (phase_settings/<name>.json).
    blind: bool

    _fields = ("overlapping_predictions", "per_technique_recall", "flc_ignore_techniques", "max_file_bytes",
               "nlu_max_answer_tokens", "max_spans_per_document", "detailed_results", "interval_resamples",
               "blind")
    __slots__ = _fields + ("given",)

    def __init__(self, **settings: Any) -> None:
        unknown = sorted(set(settings) - set(DEFAULTS))
        if unknown:
            raise TypeError("unknown setting %s" % ", ".join(unknown))
        for name in self._fields:
            object.__setattr__(self, name, settings.get(name, DEFAULTS[name]))
        # The settings given (by a settings file, a caller or ``replace``), as opposed to defaults:
        # a track's own default (``for_track``) applies only where no value was given.
        object.__setattr__(self, "given", frozenset(settings))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Options are read-only; use options.replace(%s=...)" % name)

    def replace(self, **changes: Any) -> "Options":
        """A copy with some settings changed (an unknown name is a TypeError).

        Parameters
        ----------
        **changes : the settings to change, by field name.

        Returns
        -------
        Options
            The copy; the changed settings count as given (``for_track`` keeps them).
        """
        return Options(**dict({name: getattr(self, name) for name in self.given}, **changes))

    def for_track(self, defaults: Dict[str, Any]) -> "Options":
        """These settings as one track computes with: its own ``defaults`` (a track module's
        ``SETTING_DEFAULTS``) where no value was given.

        Parameters
        ----------
        defaults : dict of setting -> value
            The track's defaults; a setting given in a settings file or by a caller wins.

        Returns
        -------
        Options
            ``self`` when no default applies, else a copy with those defaults.

        >>> Options().for_track({"overlapping_predictions": "merge"}).overlapping_predictions
        'merge'
        >>> Options(overlapping_predictions="error").for_track({"overlapping_predictions": "merge"}
        ...                                                    ).overlapping_predictions
        'error'
        """
        applied = {name: value for name, value in defaults.items() if name not in self.given}
        if not applied:
            return self
        return Options(**dict({name: getattr(self, name) for name in self.given}, **applied))

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields) + (self.given,)

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if type(other) is Options else NotImplemented  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "Options(%s)" % ", ".join("%s=%r" % (n, getattr(self, n)) for n in self._fields)


def _check(options: Options, source: str) -> Options:
    if options.overlapping_predictions not in ("error", "merge", "keep"):
        raise ReferenceDataError(["%s: overlapping_predictions must be \"error\", \"merge\" or \"keep\""
                                  % source])
    if options.detailed_results not in ("full", "scores"):
        raise ReferenceDataError(["%s: detailed_results must be \"full\" or \"scores\"" % source])
    if options.per_technique_recall not in ("correct", "official"):
        raise ReferenceDataError(["%s: per_technique_recall must be \"correct\" or \"official\"" % source])
    for name in ("flc_ignore_techniques", "blind"):
        if not isinstance(getattr(options, name), bool):
            raise ReferenceDataError(["%s: %s must be true or false" % (source, name)])
    for name in ("max_file_bytes", "nlu_max_answer_tokens", "max_spans_per_document"):
        value = getattr(options, name)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ReferenceDataError(["%s: %s must be a positive integer" % (source, name)])
    value = options.interval_resamples
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100000:
        raise ReferenceDataError(["%s: interval_resamples must be an integer from 0 (no intervals) to 100000"
                                  % source])
    return options


def read_settings(path: str) -> Any:
    """A settings file's JSON; a file that cannot be read or parsed is a ReferenceDataError naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            values = json.load(handle)
    except (OSError, ValueError) as error:
        raise ReferenceDataError(["%s: cannot read the settings (%s)" % (path, error)]) from None
    return values


def apply_settings(options: Options, values: Any, source: str) -> Options:
    """``options`` with a settings file's ``values`` (its JSON) over them, checked; every problem
    a ReferenceDataError naming ``source``."""
    if not isinstance(values, dict):
        raise ReferenceDataError(["%s: expected a JSON object of settings" % source])
    known = set(Options._fields)
    unknown = sorted(set(map(str, values)) - known - {"_comment"})
    if unknown:
        from .problems import did_you_mean
        guesses = [did_you_mean(name, known) for name in unknown]
        if all(guesses):  # each a near miss: the names it meant, not the whole list
            raise ReferenceDataError(["%s: unknown setting %s" % (source, ", ".join(
                name + guess for name, guess in zip(unknown, guesses)))])
        raise ReferenceDataError(["%s: unknown setting %s; known settings: %s"
                                  % (source, ", ".join(unknown), ", ".join(sorted(known)))])
    values = {name: value for name, value in values.items() if name != "_comment"}
    return _check(options.replace(**values), source)


def load_options(program_dir: str, reference_dir: str) -> Options:
    """Defaults, then the program's settings file, then the phase's (each optional)."""
    options = Options()
    for folder in (program_dir, reference_dir):
        path = os.path.join(folder, CONFIG_NAME)
        if os.path.isfile(path):
            options = apply_settings(options, read_settings(path), path)
    return options


def _other_phases(reference_dir: str, filename: str) -> Dict[str, List[str]]:
    """phase label -> the public ids of ``filename``'s track in that phase, in order, from
    ``OTHER_PHASES`` in the phase's reference data ({} without it, or where it cannot be read)."""
    try:
        with open(os.path.join(reference_dir, OTHER_PHASES), encoding="utf-8") as handle:
            phases = json.load(handle)
        return {str(label): list(map(str, ids.get(filename, ()))) for label, ids in phases.items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def other_phase_ids(reference_dir: str, filename: str) -> Dict[str, frozenset]:
    """phase label -> the public ids of ``filename``'s track in that phase, from ``OTHER_PHASES``
    in the phase's reference data ({} without it, or where it cannot be read)."""
    return {label: frozenset(ids) for label, ids in _other_phases(reference_dir, filename).items()}


def other_phase_counts(reference_dir: str, filename: str) -> Dict[str, int]:
    """phase label -> how many items ``filename``'s track has in that phase (its public ids, a
    repeated content id counted each time), for a track whose predictions carry neither ids nor
    inputs (``records.check_item_count``); phases without the track's items are left out."""
    return {label: len(ids) for label, ids in _other_phases(reference_dir, filename).items() if ids}
