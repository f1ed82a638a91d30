"""The Development page and the local error analysis on a phone (375 px) and a laptop (1280 px), in
headless Chromium: no console error, no page wider than the screen, the technique column of a
scrolled table still in view, and no two chart labels on top of each other. Screenshots go to
``tmp_path`` (and to /work/notes/screenshots when that folder's parent exists) for a person."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest

from browser import Browser
from conftest import ROOT, run_score

SCREENSHOTS = Path("/work/notes/screenshots")

# Measured in the page: the page's width, the sticky cells' left edges after scrolling every
# table to its right end, and the pairs of chart labels whose boxes intersect.
MEASURE = """(function () {
  var scrolled = [];
  document.querySelectorAll(".scroll").forEach(function (box) {
    box.scrollLeft = box.scrollWidth;
    var sticky = box.querySelector("td.sticky");
    if (sticky && box.scrollWidth > box.clientWidth)
      scrolled.push(sticky.getBoundingClientRect().left - box.getBoundingClientRect().left);
  });
  var overlaps = 0;
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var boxes = Array.prototype.map.call(svg.querySelectorAll("g > text"), function (t) {
      return t.getBoundingClientRect(); });
    for (var i = 0; i < boxes.length; i++) for (var j = i + 1; j < boxes.length; j++) {
      var a = boxes[i], b = boxes[j];
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
        overlaps++;
    }
  });
  var hints = Array.prototype.filter.call(document.querySelectorAll(".scroll-hint"), function (p) {
    return getComputedStyle(p).display !== "none"; }).length;
  return [document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight,
          scrolled, overlaps, hints];
})()"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The sample submission's Development page and error analysis (the baselines on the sample gold)."""
    from bundle.public_data import derive_public_data
    from baselines import write_submission
    folder = tmp_path_factory.mktemp("pages")
    reference = ROOT / "reference_data" / "dev"
    derive_public_data(str(reference), str(folder / "public"))
    write_submission(str(folder / "public"), str(folder / "files"))
    gold = {path.name: path for path in reference.iterdir()}
    gold["scoring_config.json"] = ROOT / "phase_settings" / "dev.json"  # as the build writes it: intervals too
    run = run_score(folder, gold, {path.name: path for path in (folder / "files").iterdir()}, items=True)
    assert run.returncode == 0, run.stderr
    return {"detailed_results": run.output / "detailed_results.html",
            "error_analysis": run.items / "error_analysis.html"}


def _look(page: Path, width: int, screenshot: Path, profile: Path):
    browser = Browser(profile)
    try:
        metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 700}
        session = browser.open_page(page, ("Page", "Runtime", "Log"), metrics)
        shot = None
        page_width, inner_width, height, scrolled, overlaps, hints = browser.send(
            "Runtime.evaluate", {"expression": MEASURE, "returnByValue": True}, session=session)["result"]["value"]
        browser.send("Runtime.evaluate", {"expression": "document.querySelectorAll('.scroll').forEach("
                                          "function (b) { b.scrollLeft = 0; })"}, session=session)
        browser.send("Emulation.setDeviceMetricsOverride", dict(metrics, height=min(int(height), 16000)),
                     session=session)
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        errors = [event for event in browser.events
                  if event.get("method") == "Runtime.exceptionThrown"
                  or (event.get("method") == "Runtime.consoleAPICalled"
                      and event.get("params", {}).get("type") in ("error", "assert"))
                  or (event.get("method") == "Log.entryAdded"
                      and event.get("params", {}).get("entry", {}).get("level") == "error")]
        return {"page_width": page_width, "inner_width": inner_width, "scrolled": scrolled,
                "overlaps": overlaps, "hints": hints, "errors": errors}
    finally:
        browser.close()


@pytest.mark.parametrize("name", ["detailed_results", "error_analysis"])
@pytest.mark.parametrize("width", [375, 1280])
def test_readable_on_a_phone_and_a_laptop(pages, tmp_path, name, width):
    shot = tmp_path / ("%s_%dpx.png" % (name, width))
    seen = _look(pages[name], width, shot, tmp_path / "profile")
    assert seen["errors"] == []
    assert seen["inner_width"] == width and seen["page_width"] <= width, seen
    assert seen["overlaps"] == 0, seen  # chart labels apart, F1 = 0 included
    assert all(abs(left) < 1 for left in seen["scrolled"]), seen["scrolled"]  # the technique column stays in view
    if name == "detailed_results" and width == 375:
        assert seen["scrolled"] and seen["hints"] > 0, seen  # tables scroll there, and say so
    if width == 1280:
        assert seen["hints"] == 0
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if SCREENSHOTS.parent.is_dir():
        SCREENSHOTS.mkdir(exist_ok=True)
        shutil.copyfile(shot, SCREENSHOTS / shot.name)
