"""detailed_results.html: self-contained, readable at 375 px, every number from scores.json
or the per-item statistics, rendered by a real browser without console errors; and the local error
analysis (score.py --items DIR writes DIR/error_analysis.html)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

from browser import render
from conftest import ROOT, run_score, shared_path
from scorer.run.in_process import score_in_process
from scorer.machinery.per_item import ItemStatistics, column_totals
from scorer.outputs.resampling import aggregate
from scorer.machinery.techniques import NLP4IF2019_FLC, SEMEVAL2021_T6_ST1_ST2, SEMEVAL2021_T6_ST3

T6 = ("data", "semeval2021_task6")
WIDTHS = (1280, 768, 375)
SCREENSHOTS = Path("/work/notes/screenshots")  # for the lead to look at, when that folder's parent exists


# --- a phase of real dev gold and a system-like submission -------------------------------------------

def _labels(gold: List[str], classes, rng) -> List[str]:
    """A system's labels: each gold label kept with probability 0.7, sometimes one more."""
    labels = [label for label in gold if rng.random() < 0.7]
    if rng.random() < 0.3:
        extra = rng.choice(classes)
        if extra not in labels:
            labels.append(extra)
    return labels


def _spans(gold: List[Tuple[str, int, int]], classes, rng, length: int) -> List[Tuple[str, int, int]]:
    """A system's spans: each gold span found with probability 0.7, its ends moved a little, one in
    five with another technique; a false alarm now and then."""
    spans = []
    for technique, start, end in gold:
        if rng.random() < 0.7:
            start = max(0, start + rng.randint(-3, 3))
            end = max(start + 1, end + rng.randint(-3, 3))
            spans.append((rng.choice(classes) if rng.random() < 0.2 else technique, start, end))
    if rng.random() < 0.2 and length > 10:
        start = rng.randrange(0, length - 5)
        spans.append((rng.choice(classes), start, start + 5))
    # one span per technique and fragment (the default policy refuses overlapping ones)
    kept: Dict[str, List[Tuple[int, int]]] = {}
    for technique, start, end in sorted(spans):
        if all(end <= s or start >= e for s, e in kept.get(technique, [])):
            kept.setdefault(technique, []).append((start, end))
    return [(technique, start, end) for technique, group in kept.items() for start, end in group]


def phase_files(rng: random.Random) -> Tuple[Dict[str, object], Dict[str, object]]:
    """(ref, res) for run_score: the real dev gold of four tracks and absita, and submissions."""
    st1 = shared_path(*T6, "dev_set_task1.txt")
    st2 = shared_path(*T6, "dev_set_task2.txt")
    st3 = shared_path(*T6, "task3", "dev_set_task3_labeled.txt")
    flc = shared_path("data", "nlp4if2019_flc", "train-labels-FLC")
    absita = shared_path("data", "ate_absita", "ate_absita_dev.ndjson")
    ref = {"semeval2021_t6_st1.json": st1, "semeval2021_t6_st2.json": st2, "semeval2021_t6_st3.json": st3,
           "nlp4if2019_flc": flc, "evalita2020_absita.ndjson": absita,
           # nlu in the phase but not in the submission: the page says "not entered"
           "aicup2022_nlu.csv": ROOT / "reference_data" / "dev" / "aicup2022_nlu.csv",
           "aicup2022_nlu_test.csv": ROOT / "reference_data" / "dev" / "aicup2022_nlu_test.csv"}
    res: Dict[str, object] = {}
    for name, path, classes in (("semeval2021_t6_st1.json", st1, SEMEVAL2021_T6_ST1_ST2),
                                ("semeval2021_t6_st3.json", st3, SEMEVAL2021_T6_ST3)):
        records = json.loads(path.read_text(encoding="utf-8"))
        res[name] = json.dumps([{"id": r["id"], "labels": _labels(r["labels"], classes, rng)} for r in records])
    records = json.loads(st2.read_text(encoding="utf-8"))
    res["semeval2021_t6_st2.json"] = json.dumps([
        {"id": r["id"], "labels": [{"technique": t, "start": s, "end": min(e, len(r["text"]))}
                                   for t, s, e in _spans([(g["technique"], g["start"], g["end"]) for g in r["labels"]],
                                                         SEMEVAL2021_T6_ST1_ST2, rng, len(r["text"]))
                                   if s < min(e, len(r["text"]))]}
        for r in records])
    lines = []
    for path in sorted(flc.glob("*.labels")):
        gold = [(fields[1], int(fields[2]), int(fields[3])) for fields in
                (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip())]
        article = path.name[len("article"):].split(".")[0]
        lines.extend("%s\t%s\t%d\t%d\n" % (article, t, s, e) for t, s, e in _spans(gold, NLP4IF2019_FLC, rng, 2000))
    res["nlp4if2019_flc.tsv"] = "".join(lines)
    reviews = [json.loads(line) for line in absita.read_text(encoding="utf-8").splitlines() if line.strip()]
    res["evalita2020_absita.ndjson"] = "".join(json.dumps({"id_sentence": r["id_sentence"], "score": 4}) + "\n"
                                              for r in reviews)
    return ref, res


@pytest.fixture(scope="module")
def phase(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("page")
    ref, res = phase_files(random.Random(16))
    run = run_score(tmp, ref, res)
    assert run.returncode == 0, run.stderr
    return run


@pytest.fixture(scope="module")
def page(phase):
    return phase.output / "detailed_results.html"


# --- reading the page back ------------------------------------------------------------------------

class Page(HTMLParser):
    """The page's structure: per track section (``<h2 id=track>``) its ranking line, its score and
    detail tables, and every table with an id (header texts, rows of cells as (text, data-v));
    and every element with its attributes and the tags it sits in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: List[Tuple[str, Dict[str, str], Tuple[str, ...]]] = []  # (tag, attrs, ancestors)
        self.sections: Dict[str, Dict[str, object]] = {}
        self.tables: Dict[str, Dict[str, list]] = {}
        self.headings: Dict[str, str] = {}  # track -> its h2 text
        self._open: List[str] = []
        self._section: Optional[Dict[str, object]] = None
        self._track = ""
        self._table: Optional[Dict[str, list]] = None
        self._row: Optional[list] = None
        self._cell: Optional[list] = None
        self._text: Optional[List[str]] = None  # text of the element being read (h2, th, summary)
        self._ranking_key: Optional[str] = None

    _VOID = {"meta", "br", "img", "link", "input", "hr", "circle", "rect", "line", "path"}

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        self.elements.append((tag, attrs, tuple(self._open)))
        if tag not in self._VOID:
            self._open.append(tag)
        if tag == "h2":
            self._track = attrs.get("id", "")
            self._section = self.sections.setdefault(self._track, {"ranking": {}, "scores": {}, "details": {}})
            self._text = []
        elif tag == "table":
            self._table = {"headers": [], "rows": []}
            if attrs.get("id"):
                self.tables[attrs["id"]] = self._table
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ["", attrs.get("data-v")]
        elif tag == "span" and attrs.get("class") == "key" and "p" in self._open:
            self._text = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[0] += data
        if self._text is not None:
            self._text.append(data)
        elif self._ranking_key is not None:  # " = 0.123456 (higher is better)" after a ranking key
            match = re.match(r"\s*=\s*(-?[0-9.]+)", data)
            if match and self._section is not None:
                self._section["ranking"][self._ranking_key] = float(match.group(1))
            self._ranking_key = None

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open.pop() != tag:
                pass
        if tag == "h2" and self._text is not None:
            self.headings[self._track] = "".join(self._text)
            self._text = None
        elif tag == "span" and self._text is not None:
            self._ranking_key = "".join(self._text)
            self._text = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(tuple(self._cell) if tag == "td" else ("th", self._cell[0]))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            if self._row and all(cell[0] == "th" for cell in self._row):
                self._table["headers"] = [text for _, text in self._row]
            elif self._row:
                self._table["rows"].append(self._row)
            self._row = None
        elif tag == "table" and self._table is not None:
            headers = self._table["headers"]
            if self._section is not None and headers in (["score", "value"], ["detail", "value"]):
                into = self._section["scores" if headers[0] == "score" else "details"]
                for (label, _), (value, _) in self._table["rows"]:
                    into[label.replace(" (lower is better)", "")] = float(value)
            self._table = None


def read_page(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def page_tables(text: str) -> Dict[str, List[List[Tuple[str, object]]]]:
    """Every table with an id: its rows, each cell as (text, data-v or None)."""
    return {name: table["rows"] for name, table in read_page(text).tables.items()}


class TrackStatistics:
    """A scored track as these tests read it: its per-item statistics, their column totals, and
    its module's ``aggregate`` over all of its labels or some of them. The one place the page's
    tests reach the track contract."""

    def __init__(self, result) -> None:
        self.statistics = result.statistics
        self.totals = column_totals(self.statistics)
        self.labels = self.statistics.labels
        self.items = len(self.statistics.items)

    def scores(self, labels: Optional[Sequence[str]] = None) -> Dict[str, float]:
        statistics = self.statistics
        if labels is not None:
            statistics = ItemStatistics(statistics.track, statistics.items, statistics.columns, statistics.rows,
                                        labels, statistics.keys)
        return aggregate(statistics, self.totals)

    def total(self, kinds: Sequence[str], labels: Optional[Sequence[str]] = None) -> float:
        """The total of columns ``kind|label`` (or ``kind`` for a track without labels)."""
        if not self.labels:
            return sum(self.totals[kind] for kind in kinds)
        return sum(self.totals["%s|%s" % (kind, label)] for kind in kinds
                   for label in (self.labels if labels is None else labels))


# What each count of the page is, in the statistics' columns (the tracks' names for them).
COUNT_COLUMNS = {
    "gold spans (support)": ["gold"], "gold spans": ["gold"], "predicted spans": ["predicted"],
    "precision sum": ["precision_sum"], "recall sum": ["recall_sum"],
    "gold (support)": ["tp", "fn"], "gold labels": ["tp", "fn"], "predicted": ["tp", "fp"],
    "predicted labels": ["tp", "fp"], "TP": ["tp"], "FP": ["fp"], "FN": ["fn"],
    "ATE exact matches": ["ate_exact"], "ATE partial matches": ["ate_partial"],
    "ATE predicted terms": ["ate_predicted"], "ATE gold terms": ["ate_gold"],
    "ABSA exact matches": ["absa_exact"], "ABSA partial matches": ["absa_partial"],
    "ABSA predicted terms": ["absa_predicted"], "ABSA gold terms": ["absa_gold"],
}
# The page's P, R, F1 columns, as the ends of the keys the aggregate returns.
RATIO_KEYS = {"P": ("_precision",), "R": ("_recall",), "F1": ("_f1", "_f1_micro")}


def _ratio(scores: Dict[str, float], header: str) -> Optional[float]:
    found = [value for key, value in scores.items() if key.endswith(RATIO_KEYS[header])]
    return found[0] if found else None


def _is_harmonic_mean(precision: float, recall: float, f1: float) -> bool:
    return abs((2 * precision * recall / (precision + recall) if precision + recall else 0.0) - f1) < 1e-4


# --- the tests ------------------------------------------------------------------------------------

def test_page_is_self_contained(page):
    text = page.read_text(encoding="utf-8")
    parsed = read_page(text)
    tags = [tag for tag, _, _ in parsed.elements]
    assert not {"link", "img", "iframe", "object", "embed"} & set(tags)
    assert [attrs for tag, attrs, _ in parsed.elements if tag == "script"] == [{}]  # one inline script, no src
    assert "url(" not in text and "@import" not in text and "http://" not in text and "https://" not in text
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in \
        [(tag, attrs) for tag, attrs, _ in parsed.elements]
    # every table sits in a div of class "scroll": it scrolls, not the page
    parents = [parsed.elements[i - 1] for i, (tag, _, _) in enumerate(parsed.elements) if tag == "table"]
    assert parents and all(tag == "div" and attrs.get("class") == "scroll" for tag, attrs, _ in parents)
    assert tags.count("svg") == 4  # one chart per track with a technique table
    assert parsed.headings["nlu"].endswith("not entered")
    assert len(page.read_bytes()) < 256 * 1024


def test_every_number_follows_from_the_per_item_statistics(phase, page):
    """Every number of each track's section, read back from the HTML: the scores equal scores.json
    and the track's ``aggregate`` of its per-item statistics (of a fresh in-process scoring); each
    technique row's counts are the statistics' column totals for that technique and its P, R, F1
    the aggregate over that technique alone; the details are column totals; the confusion counts
    equal a brute-force count over the files."""
    parsed = read_page(page.read_text(encoding="utf-8"))
    base = phase.output.parent / "input"
    results, refused, problems = score_in_process(str(base / "ref"), str(base / "res"), str(ROOT / "scoring_program"))
    assert not refused and not problems
    scores = phase.scores_json
    assert sorted(parsed.sections) == sorted(list(results) + ["nlu"])
    for track, result in results.items():
        section = parsed.sections[track]
        track_statistics = TrackStatistics(result)
        headline = track_statistics.scores()
        assert sorted(section["scores"]) == sorted(result.scores) == sorted(headline)
        for key, shown in section["scores"].items():
            assert shown == round(scores[key], 6) and abs(headline[key] - scores[key]) < 1e-12, (track, key)
        assert section["ranking"] and all(section["scores"][key] == value for key, value in section["ranking"].items())

        details = dict(section["details"])
        items = details.pop(next(iter(details)))  # the first detail counts the items
        assert items == track_statistics.items, track
        for label, shown in details.items():
            if label in ("micro precision", "micro recall"):
                continue  # below, with the micro F1
            assert shown == pytest.approx(track_statistics.total(COUNT_COLUMNS[label]), abs=5e-7), (track, label)
        if "micro precision" in details:
            (micro,) = [value for key, value in headline.items() if key.endswith("_f1_micro")]
            assert _is_harmonic_mean(details["micro precision"], details["micro recall"], micro)

        table = parsed.tables.get("%s-techniques" % track)
        if table is None:
            assert not result.table
            continue
        headers = table["headers"]
        assert len(table["rows"]) == len(result.table)
        supports = []
        for cells in table["rows"]:
            row = dict(zip(headers, cells))
            label = row["technique"][0].replace("absent", "")
            for header, (_, value) in row.items():
                if header in COUNT_COLUMNS:
                    assert float(value) == pytest.approx(track_statistics.total(COUNT_COLUMNS[header], [label]),
                                                         abs=1e-12), (track, label, header)
            alone = track_statistics.scores([label])
            ratios = {header: float(row[header][1]) for header in ("P", "R", "F1")}
            for header, shown in ratios.items():
                expected = _ratio(alone, header)
                if expected is not None:
                    assert shown == pytest.approx(expected, abs=1e-12), (track, label, header)
            if _ratio(alone, "P") is None:  # (the multilabel aggregate gives the F1 alone)
                assert _is_harmonic_mean(ratios["P"], ratios["R"], ratios["F1"]), (track, label)
            support, predicted = float(row[headers[2]][1]), float(row[headers[3]][1])
            supports.append(support)
            assert ("absent" in row["technique"][0]) == (support == 0 and predicted == 0)
        assert supports == sorted(supports, reverse=True)  # printed by support, largest first
        confusions = parsed.tables.get("%s-confusions" % track)
        if confusions is not None:
            shown_confusions = {(cells[1][0], cells[2][0]): int(cells[0][0]) for cells in confusions["rows"]}
            assert shown_confusions and shown_confusions == naive_confusions(base, track)


def naive_confusions(base: Path, track: str) -> Dict[Tuple[str, str], int]:
    """Every (predicted, gold) pair of spans of two techniques that share a character, by brute force
    over the files (flc: gold spans of one technique merged first, as the track scores them)."""
    from scorer.machinery.spans import merge_overlapping
    gold: Dict[str, List[Tuple[str, int, int]]] = {}
    predicted: Dict[str, List[Tuple[str, int, int]]] = {}
    if track == "t6_st2":
        for side, path in ((gold, base / "ref" / "semeval2021_t6_st2.json"), (predicted, base / "res" / "semeval2021_t6_st2.json")):
            for record in json.loads(path.read_text(encoding="utf-8")):
                side[record["id"]] = [(label["technique"], label["start"], label["end"]) for label in record["labels"]]
    else:
        for path in (base / "ref" / "nlp4if2019_flc").glob("*.labels"):
            by: Dict[Tuple[str, str], List[Tuple[int, int]]] = {}
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    article, technique, start, end = line.split("\t")
                    by.setdefault((article, technique), []).append((int(start), int(end)))
            for (article, technique), spans in by.items():
                gold.setdefault(article, []).extend((technique, s, e) for s, e in merge_overlapping(spans))
        for line in (base / "res" / "nlp4if2019_flc.tsv").read_text(encoding="utf-8").splitlines():
            article, technique, start, end = line.split("\t")
            predicted.setdefault(article, []).append((technique, int(start), int(end)))
    counts: Dict[Tuple[str, str], int] = {}
    for document, spans in predicted.items():
        for p_technique, p_start, p_end in spans:
            for g_technique, g_start, g_end in gold.get(document, ()):
                if p_technique != g_technique and max(p_start, g_start) < min(p_end, g_end):
                    counts[(p_technique, g_technique)] = counts.get((p_technique, g_technique), 0) + 1
    top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:40]
    return dict(top)


def test_confusions_wide_windows_are_counted_exactly():
    """The confusion counts equal brute force, with narrow windows (a few gold spans near each
    predicted one: enumerated) and wide ones (many long gold spans in one place: counted per
    gold technique)."""
    from scorer.machinery.span_confusions import add_confusions
    rng = random.Random(7)
    for round_ in range(400):
        gold, predicted = {}, {}
        crowded = round_ % 2  # the gold spans piled up at the start of the text
        for side, count in ((gold, rng.randint(1, 12) if not crowded else rng.randint(40, 120)),
                            (predicted, rng.randint(1, 40))):
            for _ in range(count):
                start = rng.randrange(0, 300 if crowded and side is gold else 3000)
                side.setdefault(rng.choice("ABCD"), []).append((start, start + rng.choice((2, 30, 2500))))
        naive: Dict[Tuple[str, str], int] = {}
        for x, p_spans in predicted.items():
            for y, g_spans in gold.items():
                if x != y:
                    n = sum(1 for ps, pe in p_spans for gs, ge in g_spans if max(ps, gs) < min(pe, ge))
                    if n:
                        naive[(x, y)] = n
        counted: Dict[Tuple[str, str], int] = {}
        add_confusions(gold, predicted, counted)
        assert counted == naive


def test_absent_techniques_are_labelled_and_explained(tmp_path):
    """The repository's small dev sample leaves most ST1 techniques without gold: with the gold as
    the submission they are absent, labelled so, left out of the chart, and the note explains the
    macro-F1."""
    dev = ROOT / "reference_data" / "dev"
    run = run_score(tmp_path, {"semeval2021_t6_st1.json": dev / "semeval2021_t6_st1.json"},
                    {"semeval2021_t6_st1.json": dev / "semeval2021_t6_st1.json"})
    assert run.returncode == 0, run.stderr
    text = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    rows = page_tables(text)["t6_st1-techniques"]
    absent = [cells for cells in rows if "absent" in cells[1][0]]
    assert absent and all(cells[2][0] == "0" and cells[3][0] == "0" for cells in absent)
    assert all(cells[10][1] == "-1" for cells in absent)  # no bar
    assert "zero_division=1" in text and "1.0" in text  # how the macro-F1 counts an absent technique
    points = [tag for tag, _, ancestors in read_page(text).elements if tag == "circle" and "svg" in ancestors]
    assert len(points) == len(rows) - len(absent)


def test_scores_only_phase_shows_the_scores_alone(tmp_path):
    """detailed_results "scores" (the Test phase's default): the leaderboard scores, warnings and
    not-entered tracks; no per-technique table, chart, confusion or script."""
    dev = ROOT / "reference_data" / "dev"
    ref = {"semeval2021_t6_st2.json": dev / "semeval2021_t6_st2.json",
           "semeval2021_t6_st1.json": dev / "semeval2021_t6_st1.json",
           "scoring_config.json": json.dumps({"detailed_results": "scores"})}
    run = run_score(tmp_path, ref, {"semeval2021_t6_st2.json": dev / "semeval2021_t6_st2.json"})
    assert run.returncode == 0, run.stderr
    text = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    parsed = read_page(text)
    assert list(parsed.sections["t6_st2"]["scores"]) == ["t6_st2_f1", "t6_st2_precision", "t6_st2_recall"]
    assert parsed.headings["t6_st1"].endswith("not entered") and "leaderboard scores only" in text
    assert not {"svg", "script"} & {tag for tag, _, _ in parsed.elements} and not parsed.tables
    for absent in ("Per technique", "confused", "Loaded Language"):
        assert absent not in text, absent


def test_confusion_list_is_bounded(tmp_path):
    """A submission that predicts every technique over every meme's whole text confuses each
    technique with each other one: the list shows the 40 largest and says how many are left out."""
    dev = ROOT / "reference_data" / "dev"
    records = json.loads((dev / "semeval2021_t6_st2.json").read_text(encoding="utf-8"))
    submission = [{"id": r["id"], "labels": [{"technique": t, "start": 0, "end": len(r["text"])}
                                             for t in SEMEVAL2021_T6_ST1_ST2]} for r in records]
    run = run_score(tmp_path, {"semeval2021_t6_st2.json": dev / "semeval2021_t6_st2.json"},
                    {"semeval2021_t6_st2.json": json.dumps(submission)})
    assert run.returncode == 0, run.stderr
    text = (run.output / "detailed_results.html").read_text(encoding="utf-8")
    assert len(page_tables(text)["t6_st2-confusions"]) == 40
    assert re.search(r"the \d+ smallest of \d+ pairs of techniques are not listed", text)


def _screenshot_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.mark.parametrize("width", WIDTHS)
def test_page_renders_without_errors_or_overflow(page, tmp_path, width):
    """Headless Chromium at 1280, 768 and 375 px: no console error, no horizontal overflow of the
    page (document.documentElement.scrollWidth <= innerWidth), a screenshot for a person."""
    shot = _screenshot_folder(tmp_path) / ("detailed_results_%dpx.png" % width)
    measured = render(page, width, shot, tmp_path / "profile")
    assert measured["errors"] == []
    assert measured["inner_width"] == width
    assert measured["scroll_width"] <= measured["inner_width"], measured
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10000
    if SCREENSHOTS.parent.is_dir():
        SCREENSHOTS.mkdir(exist_ok=True)
        shutil.copyfile(shot, SCREENSHOTS / shot.name)


def test_sorting_script_sorts_and_the_page_works_without_it(page, tmp_path):
    """Without script the rows are in support order (checked above); with it, a click on a header
    sorts by that column (here: F1, ascending after two clicks)."""
    from browser import Browser
    browser = Browser(tmp_path / "profile")
    try:
        session = browser.open_page(page)
        expression = """(function () {
            var table = document.getElementById("t6_st1-techniques");
            var button = table.tHead.rows[0].cells[9].querySelector("button");
            button.click(); button.click();
            return Array.prototype.map.call(table.tBodies[0].rows, function (row) {
                return parseFloat(row.cells[9].getAttribute("data-v")); });
        })()"""
        values = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                              session=session)["result"]["value"]
    finally:
        browser.close()
    assert len(values) == 20 and values == sorted(values)


# --- the local error analysis -----------------------------------------------------------------------

def test_error_analysis_highlights_a_known_case(tmp_path):
    """score.py --items DIR writes DIR/error_analysis.html (never into output/): the worst meme
    first, its text with the gold and predicted spans marked where they are."""
    gold = [{"id": "1", "text": "We must act now or lose everything.",
             "labels": [{"technique": "Smears", "start": 3, "end": 11}]},
            {"id": "2", "text": "Fine.", "labels": []}]
    predicted = [{"id": "1", "labels": [{"technique": "Smears", "start": 7, "end": 15},
                                        {"technique": "Doubt", "start": 19, "end": 23}]},
                 {"id": "2", "labels": []}]
    run = run_score(tmp_path, {"semeval2021_t6_st2.json": json.dumps(gold)},
                    {"semeval2021_t6_st2.json": json.dumps(predicted)}, items=True)
    assert run.returncode == 0, run.stderr
    assert sorted(os.listdir(run.output)) == ["detailed_results.html", "scores.json", "scores.txt"]
    text = (run.items / "error_analysis.html").read_text(encoding="utf-8")
    assert ('We <mark class="g" title="gold: Smears">must</mark><mark class="b" title="gold: Smears; predicted: '
            'Smears"> act</mark><mark class="p" title="predicted: Smears"> now</mark> or <mark class="p" '
            'title="predicted: Doubt">lose</mark> everything.') in text
    assert "item &#x27;1&#x27;" in text and "item &#x27;2&#x27;" not in text  # no error, not listed
    # the span list, in text order, with the fragments
    assert re.search(r"<td>gold</td><td class=\"label\">Smears</td><td>3</td><td>11</td><td class=\"text\">must act</td>", text)
    assert re.search(r"<td>predicted</td><td class=\"label\">Doubt</td><td>19</td><td>23</td><td class=\"text\">lose</td>", text)
    # error = (2 predicted - 0.5 precision sum) + (1 gold - 0.5 recall sum)
    assert "error 2</h3>" in text
    assert "must act" not in (run.output / "detailed_results.html").read_text(encoding="utf-8")


def test_error_analysis_of_a_multilabel_track(tmp_path):
    gold = [{"id": "7", "text": "Vote <now>!", "labels": ["Smears", "Doubt"]},
            {"id": "8", "text": "ok", "labels": []}]
    predicted = [{"id": "7", "labels": ["Smears", "Bandwagon"]}, {"id": "8", "labels": []}]
    run = run_score(tmp_path, {"semeval2021_t6_st1.json": json.dumps(gold)},
                    {"semeval2021_t6_st1.json": json.dumps(predicted)}, items=True)
    assert run.returncode == 0, run.stderr
    text = (run.items / "error_analysis.html").read_text(encoding="utf-8")
    assert "item &#x27;7&#x27;: error 2</h3>" in text and "&#x27;8&#x27;" not in text
    assert "Vote &lt;now&gt;!" in text  # the text, escaped
    labels = re.findall(r'<li>[^<]*<mark class="(\w)">(.*?)</mark></li>', text)  # correct, missed, false alarms
    assert labels == [("b", "Smears"), ("g", "Doubt"), ("p", "Bandwagon")]


def test_page_prints(page, tmp_path):
    """Printable: Chromium prints it to PDF (A4), the tables unscrolled (print style)."""
    from browser import Browser
    import base64
    browser = Browser(tmp_path / "profile")
    try:
        session = browser.open_page(page)
        pdf = base64.b64decode(browser.send("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69},
                                            session=session, timeout=120)["data"])
    finally:
        browser.close()
    assert pdf[:5] == b"%PDF-" and len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) > 1  # several pages
    (_screenshot_folder(tmp_path) / "detailed_results.pdf").write_bytes(pdf)
    assert "@media print{.scroll{overflow:visible}" in page.read_text(encoding="utf-8")
