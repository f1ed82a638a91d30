"""nlu's local error analysis (``score.py --items`` only): an id's arguments, its gold and predicted
explanations and their tokens marked by one LCS alignment."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from ...readers.problems import Problems
from ...readers.result import ItemView, marked_text
from .names import TEST_INPUT
from .reading import Row, parse_answers, read_rows, strip_wrapping_quotes
from .statistics import ratio

MAX_ALIGNED_CELLS = 4_000_000  # |gold| x |predicted| tokens aligned by the plain LCS program per text


def item_view(gold_path: str, name: str, by_id: Dict[str, Row], tokenizer,
              test_path: Optional[str]) -> Callable[[str], ItemView]:
    """Per id: the arguments q and r (from the test input, when it is in ref/) with the chosen gold
    explanation and the predicted one marked where they occur in them; then q' and r', gold and
    predicted, their tokens marked by one LCS alignment (in both, gold only, predicted only). The
    gold's texts are read again, once, on the first view (scoring keeps their token numbers)."""
    from ...machinery.lcs import lcs_alignment, lcs_length
    arguments: Dict[str, Tuple[str, str]] = {}
    gold: Dict[str, List[Row]] = {}

    def answers(identifier: str) -> List[Row]:
        if not gold:
            for row in parse_answers(gold_path, name, None, Problems(name), gold=True)[0]:
                gold.setdefault(row.identifier, []).append(row)
        return gold[identifier]

    def argument(identifier: str) -> Optional[Tuple[str, str]]:
        if test_path is None:
            return None
        if not arguments:  # the test input, read again once (scoring keeps its ids only)
            for _, fields in read_rows(test_path, TEST_INPUT, None):
                if len(fields) >= 3:
                    arguments[fields[0].strip()] = (strip_wrapping_quotes(fields[1]), strip_wrapping_quotes(fields[2]))
        return arguments.get(identifier)

    def view(identifier: str) -> ItemView:
        answer = by_id[identifier]
        predicted = {"q'": tokenizer.tokens(answer.q), "r'": tokenizer.tokens(answer.r)}
        best = None
        for j, row in enumerate(answers(identifier)):
            parts = []
            for field, text in (("q'", row.q), ("r'", row.r)):
                tokens = tokenizer.tokens(text)
                parts.append((tokens, ratio(lcs_length(tokens, predicted[field]), len(predicted[field]), len(tokens))))
            if best is None or parts[0][1] + parts[1][1] > best[0]:
                best = (parts[0][1] + parts[1][1], j, parts)
        assert best is not None
        total, chosen, parts = best
        marked = []
        texts = argument(identifier)
        if texts is not None:
            chosen_row = answers(identifier)[chosen]
            for field, text, gold_answer, answer_text in (("q", texts[0], chosen_row.q, answer.q),
                                                          ("r", texts[1], chosen_row.r, answer.r)):
                spans = [[(found, found + len(piece))] if piece and found >= 0 else []
                         for piece, found in ((p, text.find(p)) for p in (gold_answer.strip(), answer_text.strip()))]
                marked.append(("%s (the argument; explanations marked where they occur in it)" % field,
                               marked_text(text, spans[0], spans[1])))
        for (field, answer_tokens), (gold_tokens, _) in zip(predicted.items(), parts):
            if len(gold_tokens) * len(answer_tokens) <= MAX_ALIGNED_CELLS:
                in_gold, in_answer = lcs_alignment(gold_tokens, answer_tokens)
            else:  # (a 5,000-token answer: shown without its alignment)
                in_gold, in_answer = [False] * len(gold_tokens), [False] * len(answer_tokens)
            marked.append(("%s gold" % field, _marked_tokens(gold_tokens, in_gold, "g", "gold only")))
            marked.append(("%s predicted" % field, _marked_tokens(answer_tokens, in_answer, "p", "predicted only")))
        facts = [("score", "%.4f" % (total / 2)), ("q'", "%.4f" % parts[0][1]), ("r'", "%.4f" % parts[1][1]),
                 ("gold answer", "%d of %d (the best)" % (chosen + 1, len(answers(identifier))))]
        return ItemView(None, [], [], marked=marked, facts=facts)
    return view


def _marked_tokens(tokens: List[str], aligned: List[bool], alone: str, alone_title: str) -> List[Tuple[str, str, str]]:
    """Tokens as pieces separated by spaces: "b" where the alignment pairs them, else ``alone``."""
    pieces: List[Tuple[str, str, str]] = []
    for position, (token, paired) in enumerate(zip(tokens, aligned)):
        if position:
            pieces.append(("", " ", ""))
        pieces.append(("b", token, "in both") if paired else (alone, token, alone_title))
    return pieces

