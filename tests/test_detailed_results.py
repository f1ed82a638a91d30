"""detailed_results.html: self-contained, and rendered by a real browser without console errors."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, run_score

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--enable-logging=stderr", "--v=0"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("page")
    ref = {name: ROOT / "reference_data" / "dev" / name for name in os.listdir(ROOT / "reference_data" / "dev")}
    res = {name: ROOT / "reference_data" / "dev" / name for name in
           ("semeval2021_t6_st1.json", "semeval2021_t6_st2.json", "semeval2021_t6_st3.json",
            "evalita2020_absita.ndjson")}
    run = run_score(tmp, ref, res)
    assert run.returncode == 0, run.stderr
    return run.output / "detailed_results.html"


def test_page_is_self_contained(page):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img|iframe)\b", text)
    assert "url(" not in text and "@import" not in text and "http://" not in text and "https://" not in text
    assert text.count("<table") >= 4


def _chromium():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        message = "needs Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def test_page_renders_in_headless_chromium(page, tmp_path):
    chromium = _chromium()
    shot = tmp_path / "page.png"
    process = subprocess.run([chromium] + CHROMIUM_FLAGS + ["--user-data-dir=%s" % (tmp_path / "profile"),
                                                           "--window-size=1200,2000", "--screenshot=%s" % shot,
                                                           page.as_uri()],
                             capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert process.returncode == 0, process.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 10000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    console = [line for line in process.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console
