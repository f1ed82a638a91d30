"""Hostile submissions, as data: one row per attack, at any size; and ``ODD_INPUTS``, odd line
ends, offsets and bounds (``tests/test_membership_and_odd_inputs.py``: each case ends with one line
per problem and exit 1, or the official scores).

Shared by ``tests/test_hostile_resources.py`` (small sizes, every row a test) and
``benchmarks/run.py`` (the listed sizes, peak RSS and wall time in the memory table). Each row
writes its files into ``input/res`` (and may change ``input/ref``); ``size`` is the target size
of the submission in bytes. The gold is ``GOLD`` below (two memes, two articles, three
nlu test ids, two reviews).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Callable, List, NamedTuple, Optional

# The small gold of every hostile input (tests/test_hostile.py, benchmarks/run.py): two memes, two
# articles, three nlu ids, two reviews; its texts carry a canary that must never reach an output.
CANARY = "ZQXCANARY"  # in gold texts, gold answers and gold aspect terms

MEME_TEXT = "They lied " + CANARY + " again. MAKE OUR TOWN PROUD AGAIN"
GOLD = {
    "semeval2021_t6_st1.json": json.dumps([{"id": "1", "labels": ["Smears"], "text": MEME_TEXT},
                                           {"id": "2", "labels": [], "text": "Monday " + CANARY}]),
    "semeval2021_t6_st2.json": json.dumps([
        {"id": "1", "text": MEME_TEXT, "labels": [{"technique": "Smears", "start": 0, "end": 9,
                                                    "text_fragment": CANARY}]},
        {"id": "2", "text": "Monday " + CANARY, "labels": []}]),
    "semeval2021_t6_st3.json": json.dumps([{"id": "1", "labels": ["Transfer"], "text": MEME_TEXT},
                                           {"id": "2", "labels": [], "text": CANARY}]),
    "nlp4if2019_flc/article11.task-FLC.labels": "11\tDoubt\t0\t12\n",
    "nlp4if2019_flc/article11.txt": "Is it true? " + CANARY + " said so.\n",
    "nlp4if2019_flc/article12.task-FLC.labels": "",
    "aicup2022_nlu.csv": '7,"""%s gold q""","""gold r %s"""\n8,"""x y""","""z"""\n' % (CANARY, CANARY),
    "aicup2022_nlu_test.csv": 'id,q,r,s\n7,"""a %s gold q b""","""gold r %s c"""\n8,"""x y""","""z"""\n9,"""u""","""v"""\n'
                              % (CANARY, CANARY),
    "evalita2020_absita.ndjson": json.dumps({"id_sentence": "r1", "aspects": [CANARY.lower() + " batteria"],
                                             "polarities": [[1, 0]], "score": 5}) + "\n"
                                 + json.dumps({"id_sentence": "r2", "aspects": [], "polarities": [], "score": 2}) + "\n",
}

ST1, ST2, ST3 = "semeval2021_t6_st1.json", "semeval2021_t6_st2.json", "semeval2021_t6_st3.json"
FLC, NLU, ABS = "nlp4if2019_flc.tsv", "aicup2022_nlu.csv", "evalita2020_absita.ndjson"

MIB = 1024 * 1024
STDERR_LIMIT = 64 * 1024
HTML_LIMIT = 256 * 1024


def memory_budget_mib(submission_bytes: int) -> float:
    """The memory bound of every input: peak RSS <= 5 x the submission's size + 100 MiB."""
    return 5 * submission_bytes / MIB + 100


class Attack(NamedTuple):
    name: str
    write: Callable[[str, int], None]  # (input folder, size in bytes)
    exit_code: int  # 1: refused; 0: valid (scored)
    fragment: str  # in stderr (refused) or stdout (valid)


def _write(folder: str, name: str, data) -> None:
    path = os.path.join(folder, "res", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def repeated(name: str, head: str, unit: str, tail: str, separator: str = "") -> Callable[[str, int], None]:
    """A file ``head + unit (separator unit)* + tail`` of about ``size`` bytes."""
    def write(folder: str, size: int) -> None:
        count = max(1, (size - len(head) - len(tail)) // (len(unit) + len(separator)))
        _write(folder, name, head + separator.join([unit] * count) + tail)
    return write


def numbered(name: str, head: str, pattern: str, tail: str, separator: str = "") -> Callable[[str, int], None]:
    """``pattern % i`` for i = 0, 1, ... until the file has about ``size`` bytes."""
    def write(folder: str, size: int) -> None:
        parts, total, i = [], len(head) + len(tail), 0
        while total < size:
            part = pattern % i
            parts.append(part)
            total += len(part) + len(separator)
            i += 1
        _write(folder, name, head + separator.join(parts) + tail)
    return write


def fixed(name: str, content: str) -> Callable[[str, int], None]:
    def write(folder: str, size: int) -> None:
        _write(folder, name, content)
    return write


def _digits(size: int) -> str:
    return "1" * max(20, min(size, 1000000))  # 1 MB of digits: quadratic for int() on a Python without its digit limit


def long_number(name: str, before: str, after: str) -> Callable[[str, int], None]:
    def write(folder: str, size: int) -> None:
        _write(folder, name, before + _digits(size) + after)
    return write


def _special(kind: str) -> Callable[[str, int], None]:
    def write(folder: str, size: int) -> None:
        path = os.path.join(folder, "res", ST1)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if kind == "link to the gold":
            os.symlink(os.path.join(folder, "ref", ST1), path)
        elif kind == "dangling link":
            os.symlink(os.path.join(folder, "nowhere"), path)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "non-UTF-8 name":
            with open(os.path.join(folder, "res").encode() + b"/caf\xe9\n.json", "w") as handle:
                handle.write("[]")
        elif kind == "non-UTF-8 wrapper":
            inner = os.path.join(folder, "res").encode() + b"/r\xe9sultats"
            os.makedirs(inner)
            with open(inner + b"/" + ST1.encode(), "w") as handle:
                handle.write(VALID_ST1)
        elif kind == "two depths in a wrapper":
            for place in ("wrapper/" + ST1, "wrapper/inner/" + ST1):
                _write(folder, place, VALID_ST1)
    return write


VALID_ST1 = '[{"id": "1", "labels": ["Smears"]}, {"id": "2", "labels": []}]'
_SPAN = '{"technique": "Smears", "start": 0, "end": 9}'


def _many_span_memes(folder: str, size: int) -> None:
    """Memes of unknown ids with 10,000 spans each (the most a meme may have): all kept until the
    id check, so memory follows the spans."""
    meme = '{"id": "m%%d", "labels": [%s]}' % ", ".join([_SPAN] * 10000)
    numbered(ST2, "[", meme, "]", ", ")(folder, size)


def _absita_scores(score: str) -> Callable[[str, int], None]:
    def write(folder: str, size: int) -> None:
        _write(folder, ABS, "".join('{"id_sentence": "r%d", "aspects": [], "polarities": [], "score": %s}\n'
                                    % (i, score) for i in (1, 2)))
    return write


def _duplicated_long_id(name: str) -> Callable[[str, int], None]:
    def write(folder: str, size: int) -> None:
        identifier = "x" * min(max(size // 40, 1000), 900 * 1024)  # under the 1 MiB record bound
        record = '{"id": "%s", "labels": []}' % identifier
        _write(folder, name, "[" + ", ".join([record] * 30) + "]")
    return write


def _duplicated_long_absita_id(folder: str, size: int) -> None:
    identifier = "x" * min(max(size // 40, 1000), 900 * 1024)
    _write(folder, ABS, '{"id_sentence": "%s", "score": 3}\n' % identifier * 30)


ATTACKS: List[Attack] = [
    # 1. memory bounded by the input
    Attack("nlu rows of one character", repeated(NLU, "", "x\n", ""), 1, "expected 3 comma-separated columns"),
    Attack("absita lines {}", repeated(ABS, "", "{}\n", ""), 1, "missing field 'id_sentence'"),
    Attack("JSON [{},{},...]", repeated(ST1, "[", "{}", "]", ","), 1, "missing field 'id'"),
    Attack("st2 [{},{},...]", repeated(ST2, "[", "{}", "]", ","), 1, "missing field 'id'"),
    Attack("a long technique name", repeated(ST1, '[{"id": "1", "labels": ["', "Smears", '"]}]'), 1,
           "the record is longer than"),
    Attack("flc long technique name", repeated(FLC, "11\t", "Smears", "\t0\t5\n"), 1, "the line is longer than"),
    Attack("one long text with one emoji", repeated(ST2, '[{"id": "1", "text": "\U0001F600', "x",
                                                          '", "labels": []}]'), 1, "the record is longer than"),
    Attack("st2 dense spans, one meme", repeated(ST2, '[{"id": "1", "labels": [', _SPAN, "]}]", ", "), 1,
           "the record is longer than"),
    Attack("st2 memes of 10,000 spans, unknown ids", _many_span_memes, 1, "are not in this phase"),
    Attack("st1 records past the phase's count", numbered(ST1, "[", '{"id": "%d", "labels": []}', "]", ","), 1,
           "more than 1004 records"),
    Attack("flc articles past the phase's count", numbered(FLC, "", "%d\tDoubt\t0\t5\n", ""), 1,
           "more than 1004 article ids"),
    Attack("flc spans past the per-article limit", numbered(FLC, "", "12\tLoaded_Language\t%d\t1000000\n", ""), 1,
           "per article are accepted"),
    # the shortest rows a span can have: the most spans a byte of the file can hold in memory
    Attack("flc shortest spans past the per-article limit", repeated(FLC, "", "12\tDoubt\t1\t2\n", ""), 1,
           "per article are accepted"),
    Attack("absita lines past the phase's count", numbered(ABS, "", '{"id_sentence": "x%d", "score": 3}\n', ""), 1,
           "more than 1004 lines"),
    Attack("absita many aspects", numbered(ABS, "", '{"id_sentence": "x%d", "aspects": [' + ", ".join(
        ['"a%d"' % i for i in range(5000)]) + "]}\n", ""), 1, "review ids are not in this phase"),
    Attack("nlu one long line", repeated(NLU, '7,"', "word ", '","b"\n'), 1, "a field is longer than the CSV field limit"),
    Attack("nlu long answers of unknown ids", numbered(NLU, "", '1%%d,"%s","b"\n' % ("word " * 19000), ""), 1,
           "input ids are not in this phase"),
    # 2. numbers bounded while parsing
    Attack("st2 offset of 1 MB of digits", long_number(ST2, '[{"id": "1", "labels": [{"technique": "Smears", '
                                                            '"start": 0, "end": ', '}]}]'), 1,
           "record 1 (line 1): an integer of"),
    Attack("st1 id of 1 MB of digits", long_number(ST1, '[{"id": ', ', "labels": []}]'), 1, "an integer of"),
    Attack("absita score of 1 MB of digits", long_number(ABS, '{"id_sentence": "r1", "score": ', "}\n"), 1,
           "line 1: an integer of"),
    Attack("absita score of a long decimal", long_number(ABS, '{"id_sentence": "r1", "score": 3.', "}\n"), 1,
           "line 1: a number written with"),
    Attack("flc offset of 1 MB of digits", long_number(FLC, "11\tDoubt\t0\t", "\n"), 1, "line 1: an offset of"),
    # 3. absita scores
    Attack("absita score 1e155", _absita_scores("1e155"), 1, "scores beyond +-1000000 are not accepted"),
    Attack("absita score 1e308", _absita_scores("1e308"), 1, "scores beyond +-1000000 are not accepted"),
    Attack("absita score 10**400", _absita_scores("1" + "0" * 400), 1, "an integer of 401 digits"),
    Attack("absita score 1e154", _absita_scores("1e154"), 1, "scores beyond +-1000000 are not accepted"),
    Attack("absita score 1e12", _absita_scores("1e12"), 1, "scores beyond +-1000000 are not accepted"),
    Attack("absita score 1e6 (scored)", _absita_scores("-1e6"), 0, "sa_rmse: 1000003.5"),
    Attack("absita score 7.5 (scored, warned)", _absita_scores("7.5"), 0, "warning: 2 review scores lie outside 1-5"),
    # 4. special files in res/
    Attack("a link to the gold", _special("link to the gold"), 1, "semeval2021_t6_st1.json: a symbolic link"),
    Attack("a dangling link", _special("dangling link"), 1, "semeval2021_t6_st1.json: a symbolic link"),
    Attack("a FIFO named like a track file", _special("fifo"), 1, "a named pipe (FIFO)"),
    Attack("a name that is not UTF-8", _special("non-UTF-8 name"), 1, "found: caf\\xe9\\n.json"),
    Attack("a wrapper folder whose name is not UTF-8", _special("non-UTF-8 wrapper"), 0, "r\\xe9sultats"),
    # 5. echoed input is bounded
    Attack("30 duplicates of a long id", _duplicated_long_id(ST1), 1, "characters)"),  # (last copy wins: a warning)
    Attack("30 duplicates of a long st2 id", _duplicated_long_id(ST2), 1, "characters)"),
    Attack("30 duplicates of a long absita id", _duplicated_long_absita_id, 1, "characters) (first at line 1)"),
    Attack("unknown long technique names", numbered(FLC, "", "11\t%d" + "X" * 5000 + "\t0\t5\n", ""), 1,
           "unknown technique"),
    # 7. smaller
    Attack("the same file at two depths in a wrapper", _special("two depths in a wrapper"), 1, "keep only one"),
    Attack("NaN in a JSON list", fixed(ST2, '[{"id": "1", "labels": []},\n{"id": "2", "labels": [{"technique": '
                                            '"Smears", "start": NaN, "end": 9}]}]'), 1,
           "record 2 (line 2): NaN is not a JSON number"),
]


RESOURCE_SCRIPT = textwrap.dedent("""
    import resource, subprocess, sys, time
    start = time.time()
    try:
        process = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        code, out, err = process.returncode, process.stdout, process.stderr
    except subprocess.TimeoutExpired as expired:
        code, out, err = "timeout", expired.stdout or b"", expired.stderr or b""
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stdout.buffer.write(("%s %f %d\\n" % (code, time.time() - start, peak_kib)).encode())
    sys.stdout.buffer.write(("%d %d\\n" % (len(out), len(err))).encode() + out + b"\\0" + err)
""")


class Measured(NamedTuple):
    code: object
    seconds: float
    peak_mib: float
    stdout: str
    stderr: str
    submission_bytes: int
    html_bytes: int


def submission_bytes(folder: str) -> int:
    total = 0
    for root, _, files in os.walk(os.path.join(folder, "res")):
        for name in files:
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path):
                total += os.path.getsize(path)
    return total


def measure(program: str, input_dir: str, output_dir: str, timeout: Optional[float] = None) -> Measured:
    """Run score.py on ``input_dir`` in a child process; its wall time and peak RSS (getrusage)."""
    process = subprocess.run([sys.executable, "-c", RESOURCE_SCRIPT, sys.executable, program, input_dir, output_dir],
                             stdout=subprocess.PIPE, timeout=timeout)
    head, sizes, rest = process.stdout.split(b"\n", 2)
    code, seconds, peak_kib = head.decode().split()
    out_length, _ = (int(n) for n in sizes.split())
    html = os.path.join(output_dir, "detailed_results.html")
    return Measured(int(code) if code.lstrip("-").isdigit() else code, float(seconds), int(peak_kib) / 1024,
                    rest[:out_length].decode("utf-8", "replace"), rest[out_length + 1:].decode("utf-8", "replace"),
                    submission_bytes(input_dir), os.path.getsize(html) if os.path.exists(html) else 0)


def stage_gold(folder: str, gold: dict) -> None:
    for name, content in gold.items():
        path = os.path.join(folder, "ref", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(content)
    os.makedirs(os.path.join(folder, "res"), exist_ok=True)


# --- odd inputs: tests/test_membership_and_odd_inputs.py -------------------------------------------

class Case(NamedTuple):
    name: str
    res: dict  # file -> content (str or bytes) in input/res
    exit_code: int  # 1: refused with one line per problem; 0: scored
    fragment: str  # in stderr (refused)
    scores: dict = {}  # the official scores (scored)
    ref: dict = {}  # files replacing GOLD's in input/ref


_NLU_HEAD = "id,q,r\n"
ODD_INPUTS = [
    # nlu: the bounds hold on every row, scored or not (9 is not scored)
    Case("nlu_unscored_row_over_token_cap", {NLU: _NLU_HEAD + '7,"a","b"\n8,"x y","z"\n9,"%s","v"\n' % ("w " * 5001)},
         1, "line 4 (id '9'), q': the answer has at least 5001 tokens"),
    Case("nlu_unscored_row_over_exact_cap", {NLU: _NLU_HEAD + '7,"a","b"\n8,"x y","z"\n9,"%s","v"\n' % ("don't " * 2600)},
         1, "line 4 (id '9'), q': the answer has 5200 tokens; at most 5000 are accepted"),
    # flc: line ends and offsets as the official reader (Python 3 text mode, int()) reads them
    Case("flc_cr_only", {FLC: "11\tDoubt\t0\t5\r11\tDoubt\t5\t12\r"}, 0, "",
         {"flc_f1": 1.0, "flc_precision": 1.0, "flc_recall": 1.0}),
    Case("flc_one_cr_among_lf", {FLC: "11\tDoubt\t0\t5\r11\tDoubt\t5\t12\n"}, 0, "", {"flc_f1": 1.0}),
    Case("flc_underscore_offset", {FLC: "11\tDoubt\t0\t1_2\n"}, 0, "", {"flc_f1": 1.0}),
    Case("flc_double_underscore_offset", {FLC: "11\tDoubt\t0\t1__2\n"}, 1,
         "line 1: start and end must be integer character offsets (found '0', '1__2')"),
    Case("flc_cr_line_too_long", {FLC: "11\tDoubt\t0\t5\r" + "x" * (1 << 20) + "\r"}, 1,
         "line 2: the line is longer than 1048576 bytes"),
    Case("flc_form_feed_is_not_a_line_end", {FLC: "11\tDoubt\t0\t5\f11\tDoubt\t5\t12\n"}, 1,
         "line 1: expected 4 TAB-separated columns article_id, technique, start, end; found 7"),
    # absita and nlu: CR-only files are read as LF ones
    Case("absita_cr_only", {ABS: '{"id_sentence": "r1", "aspects": [], "polarities": [], "score": 5}\r'
                                 '{"id_sentence": "r2", "aspects": [], "polarities": [], "score": 2}\r'}, 0, "",
         {"sa_rmse": 0.0}),
    Case("nlu_cr_only", {NLU: 'id,q,r\r7,"gold q","gold r"\r8,"x y","z"\r9,"u","v"\r'}, 0, "",
         {"nlu_score": 5 / 6}),
    Case("nlu_cr_inside_quotes", {NLU: 'id,q,r\n7,"gold\rq","gold r"\n8,"x y","z"\n9,"u","v"\n'}, 0, "",
         {"nlu_score": 5 / 6}),
    # others: what the official readers accept, scored; what they cannot read, one line
    Case("flc_arabic_indic_digits", {FLC: "11\tDoubt\t\u0660\t\u0661\u0662\n"}, 0, "", {"flc_f1": 1.0}),
    Case("flc_signed_offsets", {FLC: "11\tDoubt\t+0\t+12\n"}, 0, "", {"flc_f1": 1.0}),
    Case("flc_underscore_start_and_end_cr", {FLC: "11\tDoubt\t0_0\t1_2\r"}, 0, "", {"flc_f1": 1.0}),
    Case("flc_nul_bytes", {FLC: "11\tDoubt\t0\t12\x00\n"}, 1, "line 1: start and end must be integer character offsets"),
    Case("st1_cr_only_json", {ST1: '[{"id": "1",\r "labels": ["Smears"]},\r{"id": "2", "labels": []}]\r'}, 0, "",
         {"t6_st1_f1_micro": 1.0}),
    Case("absita_lone_surrogate_aspect", {ABS: '{"id_sentence": "r1", "aspects": ["\\ud800"], "polarities": [[1, 0]], '
                                               '"score": 5}\n{"id_sentence": "r2", "aspects": [], "polarities": [], '
                                               '"score": 2}\n'}, 0, "", {"sa_rmse": 0.0}),
    Case("nlu_header_only", {NLU: "id,q,r\r\n"}, 1, "no rows; expected lines id,q',r'"),
    Case("nlu_nul_byte_in_quotes", {NLU: 'id,q,r\n7,"a\x00b","c"\n8,"x y","z"\n9,"u","v"\n'}, 0, "", {}),
    Case("nlu_mixed_endings", {NLU: 'id,q,r\r\n7,"gold q","gold r"\r8,"x y","z"\n9,"u","v"\r\n'}, 0, "",
         {"nlu_score": 5 / 6}),
]
