"""Every name from a participant (owner, team, file and member names, fact-sheet answers) is
untrusted. One function shows it in every output (``shown``); each writer then applies its own
escaping: ``csv_cell`` (spreadsheet formulas), ``latex_text`` (TeX), ``html.escape``.

>>> shown("x\\u202eyz\\x1b[31m")
'x\\\\u202eyz\\\\x1b[31m'
>>> csv_cell("=HYPERLINK(1)"), csv_cell("-0.5"), csv_cell("plain")
("'=HYPERLINK(1)", "'-0.5", 'plain')
>>> latex_text("50% & $x$_1")
'50\\\\% \\\\& \\\\$x\\\\$\\\\_1'
>>> unique_names(["x", "x", "x (2)"])
['x', 'x (3)', 'x (2)']
"""

from __future__ import annotations

import unicodedata
from typing import Dict, List, Sequence

from scorer.run.submission import safe_name

from .entries import Entry

SHOWN_LIMIT = 80  # characters of a name shown; a longer one is cut and says its length


def shown(text: str, limit: int = SHOWN_LIMIT) -> str:
    """``text`` as every output shows it: the scoring program's own ``safe_name``, so that a name
    reads the same in the scorer's messages and in the organisers' tables: characters that are not
    printable escaped visibly (``\\x1b``; bidirectional controls and zero-width marks are format
    characters, Cf, so ``\\u202e``), bytes that are not UTF-8 as ``\\xff``, a long name cut with
    its length."""
    return safe_name(str(text), limit)


CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str, limit: int = 2000) -> str:
    """A text cell of a CSV file: one that a spreadsheet would read as a formula (starting with
    ``= + - @``, TAB or CR) gets a leading ``'`` (numbers are written as numbers, not through this)."""
    text = shown(text, limit)
    return "'" + text if text.startswith(CSV_FORMULA_STARTS) else text


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                 "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': "''"}
# Accents pdflatex sets in its default (OT1) encoding without any package.
LATEX_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0308": '"', "\u0304": "=",
                 "\u0327": "c", "\u030c": "v", "\u0306": "u", "\u030a": "r", "\u030b": "H"}
LATEX_LETTERS = {"ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "ø": r"\o{}", "Ø": r"\O{}", "œ": r"\oe{}",
                 "Œ": r"\OE{}", "å": r"\aa{}", "Å": r"\AA{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}",
                 "\u2013": "--", "\u2014": "---", "\u2018": "`", "\u2019": "'", "\u201c": "``", "\u201d": "''"}


def _latex_char(c: str) -> str:
    if c in LATEX_SPECIAL:
        return LATEX_SPECIAL[c]
    if " " <= c <= "~":
        return c
    if c in LATEX_LETTERS:
        return LATEX_LETTERS[c]
    decomposed = unicodedata.normalize("NFD", c)
    if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[0].isalpha() and decomposed[1] in LATEX_ACCENTS:
        base = {"i": r"\i{}", "j": r"\j{}"}.get(decomposed[0], decomposed[0])
        return "\\%s{%s}" % (LATEX_ACCENTS[decomposed[1]], base)
    # anything else (CJK, emoji, ...) would stop pdflatex without a font package: shown as its code
    return r"\textless{}U+%04X\textgreater{}" % ord(c)


def latex_text(text: str, break_every: int = 0, limit: int = SHOWN_LIMIT) -> str:
    """``shown(text)`` for TeX: every special character escaped (a CR or newline can never end a
    comment or a line: ``shown`` has escaped it), letters outside ASCII as accent commands of
    plain LaTeX or as ``<U+XXXX>``. ``break_every``: a break opportunity (``\\allowbreak``) at
    least every that many printed characters of a run without spaces, so that a long name wraps
    in a ``p`` column instead of running over it."""
    out: List[str] = []
    run = 0
    for c in shown(text, limit):
        if c == " ":
            run = 0
            out.append(c)
            continue
        escaped = _latex_char(c)
        # in W widths: a lower-case letter or a digit is about half of one (cmr at 9 pt: 4.3-5 pt, W 9.3 pt)
        width = 8 if escaped.startswith(r"\textless{}U+") else (0.55 if c.islower() or c.isdigit() else 1)
        # a word is broken only when it alone is wider than the column (break_every W widths); a
        # break opportunity follows each punctuation mark of a run ("local-team" breaks after "-")
        if break_every and run and run + width > break_every:
            out.append(r"\allowbreak{}")
            run = 0
        if break_every and width > break_every:  # <U+XXXX> alone is as wide as a run: it may break inside
            escaped = escaped.replace("U+", r"U+\allowbreak{}")
        run += width
        out.append(escaped)
        if break_every and c in WORD_ENDS and run > 1:
            out.append(r"\allowbreak{}")
            run = 0
    return "".join(out)


WORD_ENDS = frozenset("-_/.,:;+=|")


def unique_names(names: Sequence[str]) -> List[str]:
    """The names with each repeat renamed ``name (k)``, k the smallest number whose result is no
    other name (given or made): two different submissions are never shown under one name."""
    taken = set(names)
    seen: Dict[str, int] = {}
    result = []
    for name in names:
        if name not in seen:
            seen[name] = 1
            result.append(name)
            continue
        k = seen[name] + 1
        while "%s (%d)" % (name, k) in taken:
            k += 1
        seen[name] = k
        made = "%s (%d)" % (name, k)
        taken.add(made)
        result.append(made)
    return result


def name_rows(ranked: Sequence[Entry]) -> None:
    """Each ranked row's name: its team, with the submission when the team has several rows;
    a team name a participant gave (fact sheet, method.txt) that is another row's owner or
    platform team name also says whose it is, ``team (owner)``, so that no one ranks under
    another's name; unique (``unique_names``)."""
    taken = {shown(e.owner) for e in ranked if e.owner} | {shown(e.team) for e in ranked if not e.claimed}
    teams = [shown(e.team) if not (e.claimed and shown(e.team) in taken and e.team != e.owner)
             else "%s (%s)" % (shown(e.team), shown(e.owner)) for e in ranked]
    # teams named alike stay apart by their owner (the platform's account) in every output; the same
    # owner's several rows by their submission
    owners_of: Dict[str, set] = {}
    for team, e in zip(teams, ranked):
        owners_of.setdefault(team, set()).add(e.owner)
    teams = [team if len(owners_of[team]) == 1 or not e.owner or team.endswith("(%s)" % shown(e.owner))
             else "%s (%s)" % (team, shown(e.owner)) for team, e in zip(teams, ranked)]
    names = [team if teams.count(team) == 1 or e.baseline else "%s [%s]" % (team, shown(e.submission))
             for team, e in zip(teams, ranked)]
    for entry, name in zip(ranked, unique_names(names)):
        entry.name = name
