"""nlu's sample gold (``tools/make_sample_data.py``) and benchmark input (``benchmarks/run.py``)."""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING, List

from .names import FILE_NAME, NAME, TEST_INPUT

if TYPE_CHECKING:  # annotations only: scoring never imports random (sample and benchmark data do)
    import random

# (topic, q, r) of the sample items: already tokenized, as in the task's data.
SAMPLE_TOPICS = (
    ("evolution", "Evolution explains the diversity of life , and fossils show gradual change over time .",
     "If evolution were true , why do we still see monkeys today ? That makes no sense to me ."),
    ("guns", "Gun ownership is a right , and responsible citizens should not be punished for crimes of others .",
     "Rights come with duties . Background checks do n't punish anyone , they just keep weapons from criminals ."),
    ("death penalty", "The death penalty deters murder because people fear losing their own lives .",
     "Studies show no clear deterrent effect , and innocent people have been executed by mistake ."),
    ("abortion", "A fetus is a human life from conception , so ending it is wrong .",
     "Personhood is a legal question , and women must decide about their own bodies ."),
    ("climate", "The climate has always changed naturally , so humans are not to blame .",
     "Natural change happens over millennia ; today 's warming took only a century and matches emissions ."),
    ("god", "The universe needs a first cause , and that cause is what we call God .",
     "Even if there were a first cause , nothing tells us it is a personal god who cares about us ."),
)
SAMPLE_ITEMS = 30  # scored ids per split; a third as many unscored ids join the test input


def write_sample_gold(folder: str, split: str, seed: int) -> List[str]:
    """The sample gold of ``split``: several accepted answers (sometimes repeated) per id, and the
    test input (``TEST_INPUT``: id,q,r,s), which also holds unscored ids, shuffled in."""
    import csv
    from ...machinery.public_input import write_text
    from ...machinery.sample_text import first_id, sample_rng
    rng = sample_rng(seed, NAME, split)
    base = first_id(split) * 10
    inputs, gold = [], []
    for n in range(SAMPLE_ITEMS):
        identifier = str(base + 3 * n)
        _, q, r = SAMPLE_TOPICS[n % len(SAMPLE_TOPICS)]
        inputs.append((identifier, q, r, "AGREE" if n % 4 == 0 else "DISAGREE"))
        q_words, r_words = q.split(), r.split()
        for _ in range(rng.randint(1, 4)):
            qa = rng.randint(0, len(q_words) // 2)
            ra = rng.randint(0, len(r_words) // 2)
            gold.append((identifier, " ".join(q_words[qa:qa + rng.randint(3, len(q_words) - qa)]),
                         " ".join(r_words[ra:ra + rng.randint(3, len(r_words) - ra)])))
    for n in range(SAMPLE_ITEMS // 3):  # unscored items mixed into the released test input
        _, q, r = SAMPLE_TOPICS[(n + 2) % len(SAMPLE_TOPICS)]
        inputs.append((str(base + 3 * SAMPLE_ITEMS + 2 * n + 1), q, r, "DISAGREE"))
    rng.shuffle(inputs)
    for name, rows in ((TEST_INPUT, [("id", "q", "r", "s")] + [(i, '"%s"' % q, '"%s"' % r, s)
                                                                for i, q, r, s in inputs]),
                       (FILE_NAME, [(i, '"%s"' % q, '"%s"' % r) for i, q, r in gold])):
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        write_text(os.path.join(folder, name), buffer.getvalue())
    return [TEST_INPUT, FILE_NAME]


def write_benchmark_input(input_dir: str, scale: int, rng: random.Random) -> None:
    """Gold and the test input (id,q,r,s) in ``ref/``, as a built phase holds them, and a
    submission in ``res/``; ×1 = the real test set: 2,016 ids, ~4.8 accepted answers each; 3%
    adversarial 2,000-token answers (the whole q and r, as a raw baseline answers)."""
    import csv
    from ...machinery.sample_text import sentence
    gold_rows, answers, inputs = [], [], []
    for i in range(2016 * scale):
        long_item = rng.random() < 0.03
        q = " ".join(sentence(rng, rng.randint(8, 25)) for _ in range(rng.randint(1, 8) if not long_item else 120))
        r = " ".join(sentence(rng, rng.randint(8, 25)) for _ in range(rng.randint(1, 8) if not long_item else 120))
        inputs.append((str(i), '"%s"' % q, '"%s"' % r, "AGREE" if i % 2 else "DISAGREE"))
        q_words, r_words = q.split(), r.split()
        for _ in range(max(1, int(rng.gauss(4.8, 2)))):
            qa = rng.randrange(len(q_words))
            ra = rng.randrange(len(r_words))
            gold_rows.append((str(i), '"%s"' % " ".join(q_words[qa:qa + rng.randint(3, 30)]),
                              '"%s"' % " ".join(r_words[ra:ra + rng.randint(3, 30)])))
        if long_item:  # the adversarial answer: the whole (2,000-token) text
            answers.append((str(i), '"%s"' % q, '"%s"' % r))
        else:
            qa, ra = rng.randrange(len(q_words)), rng.randrange(len(r_words))
            answers.append((str(i), '"%s"' % " ".join(q_words[qa:qa + rng.randint(3, 40)]),
                            '"%s"' % " ".join(r_words[ra:ra + rng.randint(3, 40)])))
    for side, rows, header, file_name in (("ref", gold_rows, None, FILE_NAME),
                                          ("ref", inputs, ("id", "q", "r", "s"), TEST_INPUT),
                                          ("res", answers, ("id", "q", "r"), FILE_NAME)):
        with open(os.path.join(input_dir, side, file_name), "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            if header:
                writer.writerow(header)
            writer.writerows(rows)
