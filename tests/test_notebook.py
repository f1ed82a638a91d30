"""The starting kit's notebook (starting_kit/README.ipynb) runs top to bottom in a kit laid out as
the build lays it out, with and without Development gold, so that it never rots; it lists every
track and previews every public file, whatever its format (a plain-text source file as its lines).
It follows the registry: a new track's public data is in it."""

from __future__ import annotations

import os
import shutil

import nbclient  # pinned in requirements-dev.txt, with nbformat and ipykernel (the python3 kernel)
import nbformat
import pytest

from conftest import ROOT, nltk_data_dir
from scorer.tracks.registry import TRACKS

pytestmark = pytest.mark.registry


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    from bundle.public_data import derive_public_data
    folder = tmp_path_factory.mktemp("kit")
    for path in (ROOT / "starting_kit").iterdir():
        if path.is_file():
            shutil.copyfile(path, folder / path.name)
    shutil.copytree(ROOT / "scoring_program", folder / "scoring_program",
                    ignore=shutil.ignore_patterns("__pycache__"))
    derive_public_data(str(ROOT / "reference_data" / "dev"), str(folder / "public_data" / "dev"))
    return folder


@pytest.mark.parametrize("gold", ["reference_data/dev", ""])
def test_the_notebook_runs_top_to_bottom(kit, gold, monkeypatch):
    monkeypatch.setenv("GOLD", str(ROOT / gold) if gold else "")
    if nltk_data_dir() is not None:
        monkeypatch.setenv("NLTK_DATA", os.environ.get("NLTK_DATA", str(nltk_data_dir())))
    notebook = nbformat.read(str(kit / "README.ipynb"), as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(kit)}}).execute()
    outputs = "\n".join(output.get("text", "") + str(output.get("data", {}).get("text/plain", ""))
                        for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs)
    assert any(line.startswith("platform: ") and "accepted" in line and "NOT " not in line
               for line in outputs.splitlines()), outputs  # the kit's verdict on the sample
    assert "t6_st1_f1_micro" in outputs and "95% confidence interval" in outputs
    assert "error_analysis.html" in outputs
    assert (kit / "notebook_run" / "my_items" / "error_analysis.html").is_file()
    for track in TRACKS:  # the table of the tracks, and a row per public file
        assert track.filename in outputs, "the notebook does not list track %s (%s)" % (track.name, track.module_path)
    for path in (kit / "public_data" / "dev").iterdir():
        assert path.name in outputs, "the notebook does not preview the public file %s" % path.name
    if gold:  # the real sample gold: the scores the kit README's baseline table shows
        assert "t6_st1_f1_micro: 0.103093" in outputs
