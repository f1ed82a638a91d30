"""The public inputs of a phase, derived from its gold: the same files with the answers removed.

Deriving them at build time means the inputs participants get can never drift from the gold.

| track  | public file                   | what it keeps                                   |
|--------|-------------------------------|-------------------------------------------------|
| t6_st1 | semeval2021_t6_st1.json       | id, text                                        |
| t6_st2 | semeval2021_t6_st2.json       | id, text                                        |
| t6_st3 | semeval2021_t6_st3.json       | id, text, image                                 |
| flc    | nlp4if2019_flc/               | article<ID>.txt texts, articles.txt (every id)  |
| nlu    | aicup2022_nlu_test.csv        | the test input (id,q,r,s) as in ref/            |
| absita | evalita2020_absita.ndjson     | id_sentence, sentence                           |
"""

from __future__ import annotations

import json
import os
import re
import shutil
from typing import Dict, List

MEME_FIELDS = {"semeval2021_t6_st1.json": ("id", "text"), "semeval2021_t6_st2.json": ("id", "text"),
               "semeval2021_t6_st3.json": ("id", "text", "image")}
_LABEL_FILE = re.compile(r"^article(\d+).*\.labels$")


def derive_public_data(reference_dir: str, public_dir: str) -> List[str]:
    """Write the public inputs of the gold in ``reference_dir``; return the files written."""
    os.makedirs(public_dir, exist_ok=True)
    written = []
    for name, fields in MEME_FIELDS.items():
        gold = os.path.join(reference_dir, name)
        if os.path.isfile(gold):
            with open(gold, encoding="utf-8-sig") as handle:
                records = json.load(handle)
            public = [{key: record[key] for key in fields if key in record} for record in records]
            _write(os.path.join(public_dir, name), json.dumps(public, indent=1, ensure_ascii=False) + "\n")
            written.append(name)
    flc_gold = os.path.join(reference_dir, "nlp4if2019_flc")
    flc_tsv = os.path.join(reference_dir, "nlp4if2019_flc.tsv")
    if os.path.isdir(flc_gold) or os.path.isfile(flc_tsv):
        folder = os.path.join(public_dir, "nlp4if2019_flc")
        os.makedirs(folder, exist_ok=True)
        articles = []
        if os.path.isdir(flc_gold):
            for file_name in sorted(os.listdir(flc_gold)):
                match = _LABEL_FILE.match(file_name)
                if match:
                    articles.append(match.group(1))
                    text = os.path.join(flc_gold, "article%s.txt" % match.group(1))
                    if os.path.isfile(text):
                        shutil.copyfile(text, os.path.join(folder, "article%s.txt" % match.group(1)))
        else:
            with open(flc_tsv, encoding="utf-8-sig") as handle:
                for line in handle:
                    article = line.split("\t")[0].strip()
                    if article and article not in articles:
                        articles.append(article)
        _write(os.path.join(folder, "articles.txt"), "".join(a + "\n" for a in articles))
        written.append("nlp4if2019_flc/")
    nlu_test = os.path.join(reference_dir, "aicup2022_nlu_test.csv")
    if os.path.isfile(nlu_test):
        shutil.copyfile(nlu_test, os.path.join(public_dir, "aicup2022_nlu_test.csv"))
        written.append("aicup2022_nlu_test.csv")
    absita = os.path.join(reference_dir, "evalita2020_absita.ndjson")
    if os.path.isfile(absita):
        lines = []
        with open(absita, encoding="utf-8-sig") as handle:
            for line in handle:
                if line.strip():
                    record = json.loads(line)
                    lines.append(json.dumps({"id_sentence": record["id_sentence"],
                                             "sentence": record.get("sentence", "")}, ensure_ascii=False))
        _write(os.path.join(public_dir, "evalita2020_absita.ndjson"), "".join(l + "\n" for l in lines))
        written.append("evalita2020_absita.ndjson")
    return written


def public_ids(public_dir: str) -> Dict[str, List[str]]:
    """The item ids of each track in a phase's public data (submission file name -> ids): what the
    build writes into the other phases' reference data (``OTHER_PHASES``), so that the scorer can
    tell a prediction for another phase's inputs from a broken file. Ids are public."""
    ids: Dict[str, List[str]] = {}
    for name in MEME_FIELDS:
        path = os.path.join(public_dir, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                ids[name] = [str(record["id"]) for record in json.load(handle)]
    articles = os.path.join(public_dir, "nlp4if2019_flc", "articles.txt")
    if os.path.isfile(articles):
        with open(articles, encoding="utf-8") as handle:
            ids["nlp4if2019_flc.tsv"] = [line.strip() for line in handle if line.strip()]
    test_input = os.path.join(public_dir, "aicup2022_nlu_test.csv")
    if os.path.isfile(test_input):
        import csv
        with open(test_input, encoding="utf-8-sig", newline="") as handle:
            rows = [row for row in csv.reader(handle) if row]
        ids["aicup2022_nlu.csv"] = [row[0].strip() for row in rows[1:] if row[0].strip()]
    reviews = os.path.join(public_dir, "evalita2020_absita.ndjson")
    if os.path.isfile(reviews):
        with open(reviews, encoding="utf-8") as handle:
            ids["evalita2020_absita.ndjson"] = [json.loads(line)["id_sentence"] for line in handle if line.strip()]
    return ids


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
