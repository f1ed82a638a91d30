"""Problems found in a submission or in the reference data, reported as one line each, and
counted warnings about what was scored anyway.

A participant only ever sees stderr on the platform, so every problem is a line of the form
``<file>: <where>: <what was expected>``. Messages about the *submission* may quote what the
participant wrote (it is theirs); messages about the *reference data* never quote it, because
stderr is public and the gold is not.

Which is which follows the refusal policy (``scoring_program/POLICY.md``): a problem refuses the
file; a warning is one counted line per file and rule for input that is scored as the official
scorer scores it.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Sequence, Tuple

# How many problem lines reach stderr; the rest is counted ("and N more problems").
MAX_REPORTED = 20
# How many a file keeps in memory, and after how many a reader may stop reading.
MAX_KEPT = 200
STOP_AFTER = 1000


Rule = Tuple[str, str]  # a warning's message for one case and for several, each with one %d


class Problems:
    """The problem lines of one file, in order, and its counted warnings."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.entries: List[Tuple[str, str]] = []  # (where, what)
        self.more = 0  # problems counted but not kept
        self._warnings: Dict[Rule, List[Any]] = {}  # rule -> [count, first place], in order seen

    def add(self, where: str, what: str) -> None:
        if len(self.entries) < MAX_KEPT:
            self.entries.append((where, what))
        else:
            self.more += 1

    @property
    def saturated(self) -> bool:
        """Enough problems to stop checking the rest of the file (readers may stop early)."""
        return len(self.entries) + self.more >= STOP_AFTER

    @property
    def lines(self) -> List[str]:
        return [_line(self.filename, where, what) for where, what in self.entries]

    def __bool__(self) -> bool:
        return bool(self.entries)

    def warn(self, rule: Rule, where: str = "") -> None:
        """Count one case of ``rule``: all cases of a rule become one line naming the first place.

        ``rule`` is a pair of messages, for one case and for several, each with one ``%d``.
        """
        entry = self._warnings.get(rule)
        if entry is None:
            self._warnings[rule] = [1, where]
        else:
            entry[0] += 1

    @property
    def warnings(self) -> List[str]:
        """One line per rule: ``107 spans end past ...; first at record 3, label 2``."""
        return [(rule[count > 1] % count) + ("; first at %s" % where if where else "")
                for rule, (count, where) in self._warnings.items()]

    def raise_if_any(self) -> None:
        if self.entries:
            raise SubmissionError(self.lines, self.more, self.saturated)

    def raise_as_reference_error(self) -> None:
        """For gold files: public lines say where, never what (the message could quote gold)."""
        if self.entries:
            public = [_line("reference data " + self.filename, where,
                            "invalid")
                      for where, _ in self.entries]
            raise ReferenceDataError(public, self.lines)


# The longest problem line: every echoed piece of input is clipped (``clip``) well below it; this
# bounds stderr and the detailed results whatever a message quotes.
MAX_LINE_CHARS = 1000
# How much of a submitted string a message quotes.
MAX_ECHO_CHARS = 60


def _line(filename: str, where: str, what: str) -> str:
    line = "%s: %s: %s" % (filename, where, what) if where else "%s: %s" % (filename, what)
    if len(line) > MAX_LINE_CHARS:
        line = line[:MAX_LINE_CHARS - 30] + "... (%d characters)" % len(line)
    return line


def clip(value: object) -> str:
    """A submitted string quoted for a message: whole when short, else its start and its length.

    >>> clip("Smears"), clip("x" * 70)
    ("'Smears'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (70 characters)")
    """
    text = value if isinstance(value, str) else str(value)
    if len(text) <= MAX_ECHO_CHARS:
        return repr(text)
    return "%r... (%d characters)" % (text[:MAX_ECHO_CHARS], len(text))


class SubmissionError(Exception):
    """The submission cannot be scored; ``lines`` say why (already prefixed with the file name).

    ``more`` problems were found but not kept; ``stopped``: checking stopped before the end.
    """

    def __init__(self, lines: Sequence[str], more: int = 0, stopped: bool = False) -> None:
        super().__init__(lines[0] if lines else "invalid submission")
        self.lines = list(lines)
        self.more = more
        self.stopped = stopped


class ReferenceDataError(Exception):
    """The reference data (gold) of a phase is broken: an organiser problem, never a participant's.

    ``public`` lines (stderr) name the file and the place but never the gold content; ``private``
    lines (only in a local run's ``--items`` folder) say what is wrong.
    """

    def __init__(self, public: Sequence[str], private: Sequence[str] = ()) -> None:
        super().__init__(public[0] if public else "invalid reference data")
        self.public = list(public)
        self.private = list(private) or list(public)


class ProgramError(Exception):
    """The scoring program cannot run as it was installed: a file it ships (the Punkt model) is
    missing or altered, or a dependency (nltk) is absent or of another version. The organisers'
    problem, like broken reference data, but a fault of the program's installation, not of the
    data. Messages name the program's own files, never gold: they are printed as they are.
    """


def fail(filename: str, where: str, what: str) -> SubmissionError:
    """One-problem shortcut: ``raise fail("x.json", "line 3", "expected ...")``."""
    return SubmissionError([_line(filename, where, what)])


def capped(lines: Sequence[str], limit: int = MAX_REPORTED, more: int = 0, stopped: bool = False) -> List[str]:
    """The first ``limit`` lines and, past them, the first line of each file not named yet (lines
    start ``<file>: ``; a submission refused in many files names each, with its first problem:
    the number of files is bounded by the registry's), in order; then one line counting the rest
    and the ``more`` not kept.

    >>> capped(["a.json: 1", "a.json: 2", "a.json: 3", "b.tsv: 1", "b.tsv: 2"], limit=2)
    ['a.json: 1', 'a.json: 2', 'b.tsv: 1', '... and 2 more problems']
    """
    kept: List[str] = []
    named = set()
    dropped = 0
    for line in lines:
        name = line.split(": ", 1)[0]
        if len(kept) < limit or name not in named:
            kept.append(line)
        else:
            dropped += 1
        named.add(name)
    rest = dropped + more
    if not rest:
        return kept
    return kept + ["... and %d more problem%s%s" % (
        rest, "" if rest == 1 else "s", " (checking stopped there)" if stopped else "")]


def did_you_mean(value: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'Name calling/Labeling'?)`` for a near miss of one of ``choices``, else ''.

    A near miss has the same words as a choice but for case, spacing, punctuation and accents
    (``loaded_language``, ``Flag waving``, ``Thought-terminating cliche``), or those of one part
    of a choice made of parts (``Name Calling`` for ``Name calling/Labeling``, ``Straw Man`` for
    ``Misrepresentation of Someone's Position (Straw Man)``), or its first words (``Appeal to
    fear`` for ``Appeal_to_fear-prejudice``), or is a close spelling of any of them. Only
    ``choices`` are suggested (a track's declared labels, never anything read from gold).

    >>> did_you_mean("Name Calling", ["Loaded Language", "Name calling/Labeling"])
    " (did you mean 'Name calling/Labeling'?)"
    """
    return _suggestion(str(value), tuple(choices))


@lru_cache(maxsize=1024)  # a file repeats the same wrong label, and each is a line of its own
def _suggestion(value: str, choices: Tuple[str, ...]) -> str:
    if len(value) > 2 * max(map(len, choices), default=0) + 10:
        return ""  # nothing that long is a near miss (and difflib's time grows with it)
    whole, parts, squashed = _forms(choices)
    key = _words(value)
    found = (whole.get(key) or parts.get(key) or squashed.get(key.replace(" ", ""))
             or [choice for form, named in whole.items() if len(key) > 3 and form.startswith(key + " ")
                 for choice in named])
    if not found:
        import difflib  # only when nothing matched word for word
        close = difflib.get_close_matches(key, list(whole) + list(parts), n=1, cutoff=0.75)
        found = (whole.get(close[0]) or parts[close[0]]) if close else []
    return " (did you mean %s?)" % " or ".join(repr(choice) for choice in found[:3]) if found else ""


def _words(text: str) -> str:
    """The letters and digits of ``text``, case and accents dropped, one space between words."""
    import re
    import unicodedata  # (only when a name is wrong, as difflib)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(re.findall(r"[^\W_]+", text.casefold()))


Forms = Dict[str, List[str]]  # the words of a name -> the choices it names


@lru_cache(maxsize=16)
def _forms(choices: Tuple[str, ...]) -> Tuple[Forms, Forms, Forms]:
    """The words of each choice; those of each of its parts (what ``/`` and ``,`` separate, the
    choice without its parenthesised words, and those words); and both without their spaces."""
    import re
    whole: Forms = {}
    parts: Forms = {}
    for choice in choices:
        whole.setdefault(_words(choice), []).append(choice)
        outside = re.sub(r"\([^()]*\)", " ", choice)
        for piece in [outside] + re.findall(r"\(([^()]*)\)", choice) + re.split(r"[/,]", outside):
            words = _words(piece)
            if words and words != _words(choice) and choice not in parts.get(words, ()):
                parts.setdefault(words, []).append(choice)
    squashed: Forms = {}
    for forms in (whole, parts):
        for words, named in forms.items():
            squashed.setdefault(words.replace(" ", ""), named)
    return whole, parts, squashed


def describe(value: object) -> str:
    """A short, safe description of a submitted JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean (%s)" % ("true" if value else "false")
    if isinstance(value, int):
        text = str(value) if abs(value) < 10 ** 30 else "a %d-digit integer" % len(str(abs(value)))
        return "the integer %s" % text
    if isinstance(value, float):
        return "the number %r" % value
    if isinstance(value, str):
        return "the string %s" % clip(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@contextmanager
def reading_reference():
    """Inside, a SubmissionError from a reader (about a gold file) becomes a ReferenceDataError.

    Reader messages say where and why (bad UTF-8, bad JSON, ...) but never quote content.
    """
    try:
        yield
    except SubmissionError as error:
        raise ReferenceDataError(["reference data " + line for line in error.lines]) from None
