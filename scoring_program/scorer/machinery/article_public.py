"""The public side of the article-folder layout (bundle build, starting kit): the article texts
without the answers, their ids, a stand-in gold made back from them, and the sentence baseline."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Callable, Dict, List, Optional

from .article_files import GOLD_FILE

if TYPE_CHECKING:  # annotations only: scoring never imports random (baselines do)
    import random

ARTICLE_LIST = "articles.txt"  # in the public folder: every article id of the phase, one a line
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


class ArticlePublicSide:
    """The public side of an ``ArticleFiles`` layout (mixed into ``ArticleFolder``: it reads the
    layout's ``gold_folder``, ``file_name`` and ``label_suffix``)."""

    def reference_data_problem(self, folder: str) -> str:
        """What the build says when a phase's gold lacks the article texts ('' when they are there):
        the texts are the track's public input, so participants would get only the article ids."""
        gold, tsv = os.path.join(folder, self.gold_folder), os.path.join(folder, self.file_name)
        if os.path.isdir(gold):
            articles = [m.group(1) for m in map(GOLD_FILE.match, sorted(os.listdir(gold))) if m]
            missing = [a for a in articles if not os.path.isfile(os.path.join(gold, "article%s.txt" % a))]
            if missing:
                return ("%s: %d of the %d articles have no article<ID>.txt text (the first: article%s.txt): "
                        "participants would get no text for them (the public data is the texts) and the sample "
                        "submission no spans; put the task's article texts beside the .labels files"
                        % (gold, len(missing), len(articles), missing[0]))
        elif os.path.isfile(tsv):
            return ("%s holds no article texts: participants would get only the article ids; give the gold as the "
                    "folder %s/ with the task's article<ID>.txt texts beside the .labels files"
                    % (tsv, self.gold_folder))
        return ""

    def write_public_input(self, gold_dir: str, public_dir: str, filename: str) -> List[str]:
        """``<gold_folder>/``: the article texts of the gold folder and ``articles.txt``."""
        import shutil
        from .public_input import write_text
        folder, tsv = os.path.join(gold_dir, self.gold_folder), os.path.join(gold_dir, self.file_name)
        articles: List[str] = []
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                match = GOLD_FILE.match(name)
                if match:
                    articles.append(match.group(1))
                    text = os.path.join(folder, "article%s.txt" % match.group(1))
                    if os.path.isfile(text):
                        os.makedirs(os.path.join(public_dir, self.gold_folder), exist_ok=True)
                        shutil.copyfile(text, os.path.join(public_dir, self.gold_folder,
                                                           "article%s.txt" % match.group(1)))
        elif os.path.isfile(tsv):
            with open(tsv, encoding="utf-8-sig") as handle:
                for line in handle:
                    article = line.split("\t")[0].strip()
                    if article and article not in articles:
                        articles.append(article)
        else:
            return []
        write_text(os.path.join(public_dir, self.gold_folder, ARTICLE_LIST), "".join(a + "\n" for a in articles))
        return [self.gold_folder + "/"]

    def public_ids(self, public_dir: str, filename: str) -> Optional[List[str]]:
        """The article ids of the public input (None: there is none)."""
        path = os.path.join(public_dir, self.gold_folder, ARTICLE_LIST)
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as handle:
            return [line.strip() for line in handle if line.strip()]

    def is_public_input(self, folder: str) -> bool:
        """Whether ``folder`` holds this track's public input (the article list), which gold never has."""
        return os.path.isfile(os.path.join(folder, self.gold_folder, ARTICLE_LIST))

    def write_stand_in_gold(self, public_dir: str, gold_dir: str, filename: str) -> List[str]:
        """A gold folder of empty ``.labels`` files, one per article, with the texts (they bound the offsets)."""
        import shutil
        articles = self.public_ids(public_dir, filename)
        if articles is None:
            return []
        target = os.path.join(gold_dir, self.gold_folder)
        os.makedirs(target, exist_ok=True)
        for article in articles:
            open(os.path.join(target, "article%s%s" % (article, self.label_suffix)), "w").close()
            text = os.path.join(public_dir, self.gold_folder, "article%s.txt" % article)
            if os.path.isfile(text):
                shutil.copyfile(text, os.path.join(target, "article%s.txt" % article))
        return [filename]

    def write_baseline(self, public_dir: str, out_dir: str, filename: str, seed: int = 42,
                       technique: Optional[Callable[["random.Random"], str]] = None) -> List[str]:
        """The sentence baseline (``sentence_spans``) of the public articles, written as ``filename``.

        Parameters
        ----------
        technique : callable or None
            Draws a span's technique from the baseline's generator (rows with a technique column).
        """
        from .public_input import write_text
        articles = self.public_ids(public_dir, filename)
        if articles is None:
            return []
        texts = {}
        for article in articles:
            path = os.path.join(public_dir, self.gold_folder, "article%s.txt" % article)
            texts[article] = ""
            if os.path.isfile(path):
                with open(path, encoding="utf-8-sig") as handle:
                    texts[article] = handle.read()
        rows = sentence_spans(texts, seed, technique)
        write_text(os.path.join(out_dir, filename), "".join("\t".join(map(str, row)) + "\n" for row in rows))
        return [filename]


def sentence_spans(articles: Dict[str, str], seed: int = 42,
                   technique: Optional[Callable[["random.Random"], str]] = None) -> List[tuple]:
    """The sentence baseline: a third of each article's sentences, at random, as spans.

    Parameters
    ----------
    articles : dict of article id -> text
    seed : int
        The generator's seed.
    technique : callable or None
        Draws each span's technique from the generator; None: rows without a technique.

    Returns
    -------
    list of tuple
        (article, technique, start, end), or (article, start, end) without ``technique``; one
        span per chosen sentence, so spans never overlap.
    """
    import random
    rng = random.Random(seed)
    rows: List[tuple] = []
    for article, text in articles.items():
        sentences = [m.span() for m in _SENTENCE.finditer(text) if m.group().strip()]
        wanted = max(1, len(sentences) // 3) if sentences else 0
        for start, end in sorted(rng.sample(sentences, min(wanted, len(sentences)))):
            while start < end and text[start].isspace():
                start += 1
            if start < end:
                rows.append((article, technique(rng), start, end) if technique else (article, start, end))
    return rows
