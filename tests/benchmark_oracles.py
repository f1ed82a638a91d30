"""The naive programs that ``benchmarks/run.py`` times beside ``score.py``, on an input folder in
Codalab's layout (``ref/`` gold, ``res/`` submission). They know the tracks' file formats (the
benchmark itself does not) and print one line. Each runs in its own process:

    python -c "import sys; sys.path.insert(0, TESTS); import benchmark_oracles as o; o.NAME(*sys.argv[1:])" ARGS

Imports stay inside the functions: a timed process loads only what its oracle needs.
"""

from __future__ import annotations

import os
import sys

NLU_FILE = "aicup2022_nlu.csv"


def _spans(input_dir: str, gold_name: str, file_name: str, span):
    """(gold, predicted): document -> [span(technique, start, end)], read by what the track declares
    (its first ``GOLD_NAMES`` and its ``FILE_NAME``, given by the benchmark): a gold folder of
    ``article<ID>...labels`` files and a TSV submission (rows ``article_id [technique] start end``;
    no technique column: every span is "propaganda"), or JSON lists of
    ``{"id", "labels": [{"technique", "start", "end"}]}`` records."""
    import json

    def tsv(path, out):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    fields = line.rstrip("\n").split("\t")
                    article, technique = fields[0], fields[1] if len(fields) == 4 else "propaganda"
                    out.setdefault(article, []).append(span(technique, int(fields[-2]), int(fields[-1])))
        return out

    folder = os.path.join(input_dir, "ref", gold_name)
    if os.path.isdir(folder):
        gold = {}
        for name in os.listdir(folder):
            if name.endswith(".labels"):
                gold.setdefault(name[len("article"):].split(".")[0], [])  # articles without spans count too
                tsv(os.path.join(folder, name), gold)
        return gold, tsv(os.path.join(input_dir, "res", file_name), {})

    def memes(path):
        with open(path, encoding="utf-8") as handle:
            return {r["id"]: [span(l["technique"], l["start"], l["end"]) for l in r["labels"]]
                    for r in json.load(handle)}

    return memes(os.path.join(input_dir, "ref", gold_name)), memes(os.path.join(input_dir, "res", file_name))


def tests_span_oracle(input_dir: str, gold_name: str, file_name: str) -> None:
    """The naive oracle of the tests (``oracles.naive_span_scores``): spans merged per technique by
    the character-set graph, then sets of characters for every same-technique pair of a document."""
    from oracles import naive_span_scores
    gold, predicted = _spans(input_dir, gold_name, file_name, lambda technique, start, end: (technique, start, end))
    print(naive_span_scores(gold, predicted))


def official_structure_spans(input_dir: str, gold_name: str, file_name: str) -> None:
    """The official scorers' algorithm: every span a set of character positions (made while
    reading), and for each document every (prediction, gold) pair, compared when their techniques
    are equal."""
    gold, predicted = _spans(input_dir, gold_name, file_name,
                             lambda technique, start, end: (technique, set(range(start, end))))
    p = r = 0.0
    for doc, spans in predicted.items():
        for pt, ps in spans:
            for gt, gs in gold.get(doc, []):
                if pt == gt:
                    inter = len(ps & gs)
                    p += inter / len(ps)
                    r += inter / len(gs)
    print(p, r)


def _nlu_rows(path: str):
    import csv
    with open(path, encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.reader(handle)]
    return [r for r in rows if r and r[0] != "id"]


def naive_lcs_score(input_dir: str, program_dir: str) -> None:
    """The nlu score with the plain LCS dynamic program (``oracles.naive_lcs``) and the scoring
    program's tokenizer."""
    sys.path.insert(0, program_dir)
    from oracles import naive_lcs
    from scorer.machinery.nltk_tokens import shared_tokenizer
    tok = shared_tokenizer()

    def strip(s):
        return s[1:-1] if len(s) > 1 and s[0] == s[-1] == '"' else s

    def ratio(x, y):
        c = naive_lcs(x, y)
        u = len(x) + len(y) - c
        return c / u if u else 0.0

    gold = {}
    for r in _nlu_rows(os.path.join(input_dir, "ref", NLU_FILE)):
        gold.setdefault(r[0], []).append((tok.tokens(strip(r[1])), tok.tokens(strip(r[2]))))
    total = 0.0
    for r in _nlu_rows(os.path.join(input_dir, "res", NLU_FILE)):
        q, a = tok.tokens(strip(r[1])), tok.tokens(strip(r[2]))
        total += max(ratio(q, gq) + ratio(a, ga) for gq, ga in gold[r[0]])
    print(total / (2 * len(gold)))


def tokenize_only(input_dir: str, program_dir: str) -> None:
    """Seconds to tokenize every distinct q and r text of the nlu gold and submission once (the
    tokenizer's loading included)."""
    import csv
    import time
    sys.path.insert(0, program_dir)
    from scorer.machinery.nltk_tokens import shared_tokenizer
    start = time.time()
    tok = shared_tokenizer()
    texts = set()
    for side in ("ref", "res"):
        with open(os.path.join(input_dir, side, NLU_FILE), encoding="utf-8", newline="") as handle:
            for row in csv.reader(handle):
                texts.update(row[1:3])
    for text in texts:
        tok.tokens(text[1:-1])
    print(time.time() - start)


def nltk_word_tokenize(input_dir: str) -> None:
    """Seconds that plain nltk 3.7 ``word_tokenize`` (the whole package imported as a user has
    it; the import not timed) takes for every q and r text of the nlu gold and submission, each
    field as it occurs, its one pair of wrapping quotes removed: what ``score.py`` is compared with.
    Prints the wall and the CPU seconds."""
    import time
    import nltk
    texts = []
    for side in ("ref", "res"):
        for row in _nlu_rows(os.path.join(input_dir, side, NLU_FILE)):
            texts.extend(t[1:-1] if len(t) > 1 and t[0] == t[-1] == '"' else t for t in row[1:3])
    start, cpu = time.perf_counter(), time.process_time()
    for text in texts:
        nltk.word_tokenize(text)
    print(time.perf_counter() - start, time.process_time() - cpu)
