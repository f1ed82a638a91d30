"""Track ``squad``: extractive question answering, scored as SQuAD v1.1's ``evaluate-v1.1.py``; an
example of a real track that tests/test_adding_a_track.py adds to a copy (not in the competition).

Each question of a SQuAD v1.1 dataset is answered by a piece of text; ``squad_exact_match`` is the
share of questions whose normalised answer equals one of their gold answers' (lower case, ASCII
punctuation removed, the articles a/an/the removed, whitespace collapsed), ``squad_f1`` the mean
over questions of the best token F1 against a gold answer. Files: the SQuAD v1.1 dataset JSON
(``{"version", "data": [{"title", "paragraphs": [{"context", "qas": [{"id", "question",
"answers": [{"text", "answer_start"}]}]}]}]}``) named ``squad_dataset.json`` in ``ref/``; the
predictions, one top-level JSON object ``{question id: answer text}``, ``squad_predictions.json``
in ``res/``; the public input, the dataset without its answers, ``squad_questions.json``. Metric
card: ``squad.md`` beside this file.
"""

from __future__ import annotations

import os
import random
import re
import string
from collections import Counter
from typing import Any, Dict, List, Optional, Tuple

from ..machinery.item_digests import digest
from ..machinery.per_item import ItemStatistics, ScalarOps
from ..machinery.public_input import read_json, write_json
from ..readers.json_object import iter_json_object
from ..readers.options import Options, other_phase_ids
from ..readers.problems import Problems, clip, describe, reading_reference
from ..readers.records import check_duplicates, check_id_sets, record_limit
from ..readers.result import ItemView, TrackResult

NAME = "squad"
TITLE = "SQuAD v1.1: extractive question answering (exact match and F1)"
FILE_NAME = "squad_predictions.json"
GOLD_NAMES = ("squad_dataset.json",)
PUBLIC_NAME = "squad_questions.json"
KEYS = ("squad_f1", "squad_exact_match")
LEADERBOARDS = ((NAME, "squad_f1"), ("squad_em", "squad_exact_match"))
RELEASED_GOLD = {"dev": "dev-v1.1.json"}
ITEM_ERROR = "1 - the question's F1 (its best over the gold answers)"


# --- the official normalisation and the two scores of one answer --------------------------------

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def normalize_answer(text: str) -> str:
    """The text as the official scorer compares it: lower case, then ASCII punctuation removed,
    then each article a space, then the words joined by one space.

    >>> normalize_answer("  The Eiffel-Tower, (Paris)! ")
    'eiffeltower paris'
    """
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split())


def token_f1(predicted: List[str], gold: List[str]) -> float:
    """The F1 of two normalised answers' tokens (their common multiset), in the official float steps."""
    same = sum((Counter(predicted) & Counter(gold)).values())
    if same == 0:
        return 0.0
    precision = 1.0 * same / len(predicted)
    recall = 1.0 * same / len(gold)
    return (2 * precision * recall) / (precision + recall)


def answer_scores(prediction: str, answers: List[str]) -> Tuple[int, float]:
    """(exact match, F1) of one prediction: each the best over the question's gold answers."""
    normalised = normalize_answer(prediction)
    tokens = normalised.split()
    exact, f1 = 0, 0.0
    for answer in answers:
        gold = normalize_answer(answer)
        exact = max(exact, int(normalised == gold))
        f1 = max(f1, token_f1(tokens, gold.split()))
    return exact, f1


# --- reading -------------------------------------------------------------------------------------

class Question:
    __slots__ = ("id", "question", "answers")

    def __init__(self, identifier: str, question: str, answers: List[str]) -> None:
        self.id, self.question, self.answers = identifier, question, answers


def _list(value: Any, where: str, field: str, problems: Problems) -> List[Any]:
    if isinstance(value, dict) and isinstance(value.get(field), list):
        return value[field]
    problems.add(where, "expected an object with a list %r" % field)
    return []


def _read_gold(path: str, name: str) -> List[Question]:
    """The dataset's questions in its order (articles, paragraphs, qas), each with its answers' texts."""
    problems = Problems(name)
    with reading_reference():
        members = dict(iter_json_object(path, name, None, max_record_chars=None))
    questions: List[Question] = []
    for a, article in enumerate(_list(members, "top level", "data", problems)):
        for p, paragraph in enumerate(_list(article, "article %d" % (a + 1), "paragraphs", problems)):
            for q, qa in enumerate(_list(paragraph, "article %d, paragraph %d" % (a + 1, p + 1), "qas", problems)):
                where = "article %d, paragraph %d, question %d" % (a + 1, p + 1, q + 1)
                answers = qa.get("answers") if isinstance(qa, dict) else None
                if not isinstance(answers, list) or not answers or not isinstance(qa.get("id"), str) or \
                        not all(isinstance(answer, dict) and isinstance(answer.get("text"), str) for answer in answers):
                    problems.add(where, "expected a string \"id\" and a non-empty list \"answers\" of objects, each "
                                        "with a string \"text\"")
                    continue
                texts = [answer["text"] for answer in answers]
                question = qa.get("question")
                questions.append(Question(qa["id"], question if isinstance(question, str) else "", texts))
    check_duplicates([question.id for question in questions], problems, lambda i: "question %d" % (i + 1))
    problems.raise_as_reference_error()
    return questions


def _read_predictions(path: str, name: str, max_bytes: Optional[int], problems: Problems,
                      max_members: Optional[int]) -> Dict[str, str]:
    """question id -> answer text; a key given twice keeps its last value (``json.load``), with a warning."""
    pairs = list(iter_json_object(path, name, max_bytes, max_members, "question ids"))
    for key, value in pairs:
        if not isinstance(value, str):
            problems.add("key %s" % clip(key), "the answer must be a string, found %s" % describe(value))
    check_duplicates([key for key, _ in pairs], problems, lambda i: "member %d" % (i + 1), last_wins=True)
    return dict(pairs)


# --- scoring -------------------------------------------------------------------------------------

def score(gold_path: str, submission_path: str, name: str, options: Options, reference_dir: str) -> TrackResult:
    questions = _read_gold(gold_path, os.path.basename(gold_path))
    problems = Problems(name)
    predictions = _read_predictions(submission_path, name, options.max_file_bytes, problems,
                                    record_limit(len(questions)))
    check_id_sets([question.id for question in questions], predictions, problems, "question ids",
                  other_phases=other_phase_ids(reference_dir, name))
    problems.raise_if_any()
    rows = [answer_scores(predictions[question.id], question.answers) + (1,) for question in questions]
    statistics = ItemStatistics(NAME, [question.id for question in questions], ["exact", "f1", "questions"],
                                rows, (), KEYS)
    totals = {"exact": 0, "f1": 0.0, "questions": len(rows)}
    for exact, f1, _ in rows:  # in the dataset's order, as the official scorer adds them
        totals["exact"] += exact
        totals["f1"] += f1
    by_id = {question.id: question for question in questions}

    def item_view(identifier: str) -> ItemView:
        question = by_id[identifier]
        return ItemView(None, [], [], facts=[("question", question.question),
                                             ("gold answers", " | ".join(question.answers)),
                                             ("prediction", predictions[identifier])])

    return TrackResult(track=NAME, title=TITLE, scores=aggregate(statistics, totals), details={"questions": len(rows)},
                       warnings=problems.warnings, statistics=statistics, item_noun="question", item_view=item_view)


def aggregate(statistics, totals, ops=ScalarOps, key: Optional[str] = None) -> Dict[str, Any]:
    return {"squad_f1": ops.divide(totals["f1"], totals["questions"], 0.0),
            "squad_exact_match": ops.divide(totals["exact"], totals["questions"], 0.0)}


def item_error(totals) -> float:
    return 1.0 - totals["f1"]


# --- the public side -------------------------------------------------------------------------------

def prediction_digests(submission_path: str, file_name: str, options: Options) -> Dict[str, bytes]:
    """Question id -> the digest of its answer as the scorer compares it (``normalize_answer``)."""
    problems = Problems(file_name)
    predictions = _read_predictions(submission_path, file_name, options.max_file_bytes, problems, None)
    problems.raise_if_any()
    return {key: digest(normalize_answer(value)) for key, value in predictions.items()}


def _without_answers(dataset: Dict[str, Any], answers) -> Dict[str, Any]:
    """The dataset with each question's answers replaced by ``answers(question)`` (None: removed)."""
    data = []
    for article in dataset["data"]:
        paragraphs = []
        for paragraph in article["paragraphs"]:
            qas = []
            for qa in paragraph["qas"]:
                kept = {"id": qa["id"], "question": qa.get("question", "")}
                if answers is not None:
                    kept["answers"] = answers(qa)
                qas.append(kept)
            paragraphs.append({"context": paragraph.get("context", ""), "qas": qas})
        data.append({"title": article.get("title", ""), "paragraphs": paragraphs})
    return {"version": dataset.get("version", "1.1"), "data": data}


def write_public_input(gold_dir: str, public_dir: str, filename: str) -> List[str]:
    gold = os.path.join(gold_dir, GOLD_NAMES[0])
    if not os.path.isfile(gold):
        return []
    write_json(os.path.join(public_dir, PUBLIC_NAME), _without_answers(read_json(gold), None))
    return [PUBLIC_NAME]


def _public_questions(public_dir: str) -> Optional[List[Tuple[str, str]]]:
    """(id, context) of each public question, in order; None without the public input."""
    path = os.path.join(public_dir, PUBLIC_NAME)
    if not os.path.isfile(path):
        return None
    return [(qa["id"], paragraph["context"]) for article in read_json(path)["data"]
            for paragraph in article["paragraphs"] for qa in paragraph["qas"]]


def public_ids(public_dir: str, filename: str) -> Optional[List[str]]:
    questions = _public_questions(public_dir)
    return None if questions is None else [identifier for identifier, _ in questions]


def write_stand_in_gold(public_dir: str, gold_dir: str, filename: str) -> List[str]:
    path = os.path.join(public_dir, PUBLIC_NAME)
    if not os.path.isfile(path):
        return []
    write_json(os.path.join(gold_dir, GOLD_NAMES[0]),
               _without_answers(read_json(path), lambda qa: [{"text": "", "answer_start": 0}]))
    return [GOLD_NAMES[0]]


def is_public_input(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, PUBLIC_NAME)) and not os.path.isfile(os.path.join(folder, GOLD_NAMES[0]))


def write_baseline(public_dir: str, out_dir: str, filename: str, seed: int = 42, variant: str = "random") -> List[str]:
    """For each question, one to three consecutive words of its paragraph, drawn at random."""
    questions = _public_questions(public_dir)
    if questions is None:
        return []
    rng = random.Random(seed)
    answers = {}
    for identifier, context in questions:
        words = context.split() or [""]
        start = rng.randrange(len(words))
        answers[identifier] = " ".join(words[start:start + rng.randint(1, 3)])
    write_json(os.path.join(out_dir, filename), answers)
    return [filename]


# --- sample gold and benchmark inputs ---------------------------------------------------------------

def _dataset(rng: random.Random, prefix: str, articles: int, paragraphs: int, questions: Tuple[int, int]
             ) -> Dict[str, Any]:
    """A made-up SQuAD v1.1 dataset (``questions``: the range of a paragraph's count): each question's answers are spans of its paragraph, some
    with an article or punctuation of their own, some questions with several answers."""
    from ..machinery.sample_text import sentence
    data, n = [], 0
    for a in range(articles):
        article = {"title": "%s_article_%d" % (prefix, a), "paragraphs": []}
        for _ in range(paragraphs):
            context = " ".join(sentence(rng, rng.randint(5, 14)) for _ in range(rng.randint(2, 5)))
            words = context.split()
            qas = []
            for _ in range(rng.randint(*questions)):
                start = rng.randrange(len(words))
                answers = []
                for _ in range(rng.choice([1, 1, 2, 3])):
                    first = max(0, start - rng.randint(0, 1))
                    text = " ".join(words[first:first + rng.randint(1, 4)])
                    answers.append({"text": rng.choice(["", "the ", "an "]) + text if rng.random() < 0.2 else text,
                                    "answer_start": max(0, context.find(text))})
                qas.append({"id": "%s%05d" % (prefix, n), "question": "What about %s?" % sentence(rng, 4)[:-1],
                            "answers": answers})
                n += 1
            article["paragraphs"].append({"context": context, "qas": qas})
        data.append(article)
    return {"version": "1.1", "data": data}


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    from ..machinery.sample_text import sample_rng
    write_json(os.path.join(folder, GOLD_NAMES[0]), _dataset(sample_rng(seed, NAME, split), split, 3, 3, (1, 4)))
    return [GOLD_NAMES[0]]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """×1: about the size of SQuAD v1.1's development set (48 articles, 2,067 paragraphs, 10,570 questions)."""
    dataset = _dataset(rng, "q", 48 * scale, 43, (3, 7))
    write_json(os.path.join(input_dir, "ref", GOLD_NAMES[0]), dataset)
    predictions = {}
    for article in dataset["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                gold = qa["answers"][0]["text"]
                predictions[qa["id"]] = gold if rng.random() < 0.6 else " ".join(paragraph["context"].split()[:3])
    write_json(os.path.join(input_dir, "res", FILE_NAME), predictions)
