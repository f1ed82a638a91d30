"""What every section measures with: a program run in its own process (wall time, CPU time and
peak RSS from getrusage), a fresh copy of the scoring program as a worker unpacks it, each
track's generated input as a built phase holds it, and the machine the numbers come from."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MIB = 1024 * 1024
TESTS = os.path.join(ROOT, "tests")
sys.path.insert(0, os.path.join(ROOT, "scoring_program"))

from scorer.tracks.registry import BY_NAME, TRACKS as REGISTERED  # noqa: E402

# Each track's input generator (gold in ref/, a submission in res/, at a scale of the real data; its
# module's write_benchmark_input): the benchmark knows no file format.
TRACKS = {track.name: track.write_benchmark_input for track in REGISTERED}
# Each track's benchmark settings (its module's BENCHMARK: scales, naive oracle, targets).
SETTINGS = {track.name: track.benchmark for track in REGISTERED}

MEASURE = r'''
import resource, subprocess, sys, time
start = time.perf_counter()
process = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
elapsed = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(process.returncode, elapsed, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
print(process.stdout.strip().splitlines()[-1] if process.stdout.strip() else "")
sys.stderr.write(process.stderr[-3000:])
'''

# The naive programs (tests/benchmark_oracles.py: they know the formats), each in its own process:
# oracle(name, *arguments) is the argv of a run.
ORACLE = ("import sys; sys.path.insert(0, sys.argv[1]); import benchmark_oracles as o; "
          "getattr(o, sys.argv[2])(*sys.argv[3:])")


def oracle(name, *arguments):
    return [sys.executable, "-c", ORACLE, TESTS, name] + list(arguments)


def measure(argv, env=None, check=True):
    """(seconds, peak MB, last line of stdout) of one run; ``check``: a non-zero exit is an error."""
    seconds, peak, last, _, _ = measure_all(argv, env, check)
    return seconds, peak, last


def measure_all(argv, env=None, check=True):
    """(seconds, peak MiB, last line of stdout, CPU seconds (user + system), exit code) of one run."""
    process = subprocess.run([sys.executable, "-c", MEASURE] + argv, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True, env=env)
    lines = process.stdout.splitlines()
    code, seconds, peak_kib, cpu = lines[0].split()
    if check and int(code) != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(argv[:3]), process.stderr))
    return float(seconds), int(peak_kib) / 1024.0, lines[1] if len(lines) > 1 else "", float(cpu), int(code)


def folder_size(folder):
    return sum(os.path.getsize(os.path.join(root, name)) for root, _, files in os.walk(folder) for name in files)


def program_copy(folder, name):
    """A copy of scoring_program/ (without bytecode), as a compute worker unpacks it: its score.py."""
    target = os.path.join(folder, name)
    shutil.copytree(os.path.join(ROOT, "scoring_program"), target,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return os.path.join(target, "score.py")


def python_default_env():
    """The environment with Python's default bytecode caching (this sandbox turns it off)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cold_env():
    """The environment of a worker's run: no bytecode is ever cached."""
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1")


def built_phase_extras(track, ref):
    """What the build adds beside a track's gold in a phase's reference data (the track module's
    ``reference_data_extras``: nlu's token cache), as a built phase holds it."""
    for name, data in BY_NAME[track].reference_data_extras(ref).items():
        with open(os.path.join(ref, name), "wb") as handle:
            handle.write(data)


def input_folder(folder, name):
    """An empty ``ref/`` and ``res/`` under ``folder/name``: the input folder's path."""
    base = os.path.join(folder, name)
    os.makedirs(os.path.join(base, "ref"))
    os.makedirs(os.path.join(base, "res"))
    return base


def load_average():
    return "%.1f" % os.getloadavg()[0] if hasattr(os, "getloadavg") else "unknown"


def cpu_model():
    """The CPU's model name where /proc/cpuinfo says it (Linux), else the machine type."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine():
    """The machine the numbers come from, as RESULTS.md names it."""
    return "%s, %d cores, Python %s" % (cpu_model(), os.cpu_count() or 0, platform.python_version())


def today():
    return time.strftime("%Y-%m-%d")
