"""Start-up: ``score.py`` on the development sample gold of the repository, cold (a worker that
unpacks the program compiles it every time) and warm (Python's default bytecode cache)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from .measuring import BY_NAME, ROOT, cold_env, measure, program_copy, python_default_env

NAME = "startup"
HEADER = "## Start-up"
ALONE = True


def collect(args, folder):
    return startup(args.repeat, folder)


def startup(repeat, folder):
    """Whole-process time of score.py on the development sample gold: an empty res/, the sample
    submission without its nlu file (nothing heavy may be imported), and the whole sample.
    "cold": bytecode never cached (a worker that unpacks the program for every submission);
    "warm": Python's default cache, written by an earlier run."""
    sys.path.insert(0, os.path.join(ROOT, "starting_kit"))
    sys.path.insert(0, ROOT)
    from baselines import write_submission
    from bundle.public_data import derive_public_data
    base = os.path.join(folder, "startup")
    ref = os.path.join(base, "ref")
    shutil.copytree(os.path.join(ROOT, "reference_data", "dev"), ref)
    derive_public_data(ref, os.path.join(base, "public"))
    write_submission(os.path.join(base, "public"), os.path.join(base, "sample"))
    programs = {"cold": (program_copy(folder, "program-cold"), cold_env()),
                "warm": (program_copy(folder, "program-warm"), python_default_env())}
    nlu_file = BY_NAME["nlu"].filename
    cases = {"empty res/": [], "sample without nlu": [n for n in os.listdir(os.path.join(base, "sample"))
                                                       if n != nlu_file],
             "sample, all six tracks": os.listdir(os.path.join(base, "sample"))}
    rows = []
    for case, names in cases.items():
        res = os.path.join(base, "res")
        shutil.rmtree(res, ignore_errors=True)
        os.makedirs(res)
        for name in names:
            source = os.path.join(base, "sample", name)
            (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, os.path.join(res, name))
        timings = {}
        for mode, (program, env) in programs.items():
            argv = [sys.executable, program, base, os.path.join(base, "output")]
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)  # warm-up
            timings[mode] = min((measure(argv, env, check=False) for _ in range(repeat)),  # (empty res/: exit 1)
                                key=lambda m: m[0])
        rows.append((case, timings))
        print("start-up %-24s cold %.3f s  warm %.3f s" % (case, timings["cold"][0], timings["warm"][0]), flush=True)
    return rows


def markdown(rows, results, args):
    lines = [HEADER, "",
             "`score.py` on the development sample gold of the repository (fastest of %d runs). A compute "
             "worker that unpacks the program for every submission compiles it every time (cold); "
             "Python's default bytecode cache, used for the platform runs' warm times, saves that (warm). Scoring "
             "without an nlu file imports no nltk, regex, numpy, pandas or yaml (a test checks it)." % args.repeat,
             "", "| submission (development sample gold) | cold: no bytecode cache | warm: cached bytecode | peak RSS |",
             "|---|---|---|---|"]
    for case, timings in rows:
        lines.append("| %s | %.3f s | %.3f s | %.0f MB |" % (case, timings["cold"][0], timings["warm"][0],
                                                           timings["warm"][1]))
    return "\n".join(lines)
