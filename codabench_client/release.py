"""Release day: a held-back phase's public data and starting kit (``build_bundle.py`` writes them
to ``dist/release_<folder>/``) set on the phase (``PATCH /api/phases/<id>/``: ``PhaseSerializer``
has ``public_data`` and ``starting_kit`` writable, by dataset id, as the competition editor's phase
form sets them), and a blind phase's stand-in on its task (``reference``), then read back.

Idempotent by what the site serves: a file the phase already has (its bytes read back) is left
alone; one the site serves for this competition already (another phase's, e.g. Evaluation's inputs
for Post-Evaluation, or an upload of a run that stopped before setting the phase) is reused; a
half-made dataset (its file missing or different) is replaced by a new upload, never reused.
"""

from __future__ import annotations

import datetime
import os
import re
import stat
from typing import Callable, Dict, List, Tuple

from ranking.names import shown

from . import datasets, phases, reference, resources
from .errors import CodabenchError
from .shapes import identifier
from .site import Site

# (phase field = dataset type, what the file name holds, as the site names the type)
KINDS = (("public_data", "public_data", "public data"), ("starting_kit", "starting_kit", "starting kit"))
TRACK_TITLE = re.compile(r"\(track ([A-Za-z0-9_]+)\)\s*$")


def release_files(folder: str) -> Dict[str, str]:
    """Dataset type -> zip in ``folder``: ``*public_data*.zip`` and ``*starting_kit*.zip`` (at most
    one of each); any other file is refused, naming it."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise CodabenchError("release folder %s cannot be read (%s)" % (shown(folder), error.strerror or error))
    found: Dict[str, str] = {}
    for name in names:
        path = os.path.join(folder, name)
        try:
            mode = os.lstat(path).st_mode
        except OSError as error:
            raise CodabenchError("release folder %s: %s cannot be read (%s)"
                                 % (shown(folder), shown(name), error.strerror or error)) from None
        if name.startswith(".") or stat.S_ISDIR(mode):
            continue
        if not stat.S_ISREG(mode):  # a FIFO would block the upload's read for good; a link may lead anywhere
            kind = "a symbolic link" if stat.S_ISLNK(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode) \
                else "not a regular file"
            raise CodabenchError("release folder %s: %s is %s; the release is read from regular files only"
                                 % (shown(folder), shown(name), kind))
        if name.lower().endswith("reference_data.zip"):
            continue  # a held-back phase's reference data: set on its task (lifecycle.release_reference)
        kinds = [kind for kind, marker, _ in KINDS if marker in name.lower()]
        if not name.lower().endswith(".zip") or len(kinds) != 1:
            raise CodabenchError("release folder %s: %s is neither a public data zip (*public_data*.zip) nor a "
                                 "starting kit (*starting_kit*.zip)" % (shown(folder), shown(name)))
        if kinds[0] in found:
            raise CodabenchError("release folder %s holds two %s zips (%s, %s)"
                                 % (shown(folder), kinds[0], shown(os.path.basename(found[kinds[0]])), shown(name)))
        found[kinds[0]] = path
    if not found:
        raise CodabenchError("release folder %s holds no public data or starting kit zip (build_bundle.py writes "
                             "them to dist/release_<phase>/)" % shown(folder))
    return found


def folder_for(comp: dict, folder: str, phase: dict, several: bool) -> str:
    """The release folder of one competition: ``folder`` itself when it holds the zips; for a
    ``--per-track`` build (``dist/``), ``dist/<track>/release_*`` of the track the competition's
    title names (``... (track flc)``), the one matching the phase's name when there are several."""
    has_zips = os.path.isdir(folder) and any(n.lower().endswith(".zip") for n in os.listdir(folder))
    if has_zips and not several:
        return folder
    match = TRACK_TITLE.search(str(comp.get("title", "")))
    if not match:
        raise CodabenchError("competition %s (%s): its title names no track (\"... (track <name>)\", as --per-track "
                             "builds it), so %s cannot say which release is its own"
                             % (comp.get("id"), shown(comp.get("title", "")), shown(folder)))
    base = os.path.join(folder, match.group(1))
    try:
        candidates = sorted(n for n in os.listdir(base) if n.startswith("release_") and os.path.isdir(os.path.join(base, n)))
    except OSError:
        candidates = []
    if len(candidates) == 1:
        return os.path.join(base, candidates[0])
    wanted = "release_" + re.sub(r"[^a-z0-9]+", "_", str(phase.get("name", "")).lower()).strip("_")
    if wanted in candidates:
        return os.path.join(base, wanted)
    raise CodabenchError("competition %s (track %s): %s holds %s; give the release folder itself"
                         % (comp.get("id"), match.group(1), shown(base),
                            ", ".join(candidates) if candidates else "no release_* folder"))


def _dataset_id(site: Site, key: str, owner: str, kind: str) -> int:
    found = [d for d in datasets.mine(site, kind, owner) if d.get("key") == key]
    if not found:
        raise CodabenchError("dataset %s was uploaded but the site does not list it among your datasets" % key)
    return identifier(found[0].get("id"), "dataset %s, id" % key)


def dataset_for(site: Site, comp: dict, phase: dict, kind: str, label: str, file: datasets.Local, today: str,
                tell: Callable[[str], None]) -> Tuple[int, str, bool]:
    """(dataset id, key, changed) of the dataset the phase's ``kind`` is to be: the phase's own when
    the site serves ``file`` as it; else one the site serves it as for this competition (another
    phase's, an earlier run's upload of the organiser's), else a new upload."""
    comp_id, where = int(comp["id"]), phases.where(int(comp["id"]), phase)
    current = phase.get(kind)
    if isinstance(current, dict) and datasets.serves(site, current, file):
        tell("%s: %s already %s (dataset %s, its bytes served): unchanged"
             % (where, label, shown(current.get("name", ""), 300), current.get("key")))
        return identifier(current.get("id"), "%s, %s, id" % (where, kind)), str(current.get("key")), False
    others = [p.get(kind) for p in phases.ordered(comp) if p is not phase and isinstance(p.get(kind), dict)]
    found = datasets.first_serving(site, others, file)
    if found is not None:
        tell("%s: %s %s: the site serves it for this competition already (dataset %s, another phase's): reused"
             % (where, label, shown(file.name), found.get("key")))
        return identifier(found.get("id"), "%s, %s, id" % (where, kind)), str(found.get("key")), True
    owner = datasets.me(site)
    own = datasets.mine(site, kind, owner)
    found = datasets.first_serving(site, [d for d in own if datasets.made_for(d, comp_id)], file)
    if found is not None:
        tell("%s: %s %s was uploaded before and the site serves it (dataset %s): reused"
             % (where, label, shown(file.name), found.get("key")))
        return identifier(found.get("id"), "your %s datasets, id" % label), str(found.get("key")), True
    title = str(comp.get("title", ""))
    # unique per competition and content: the site refuses a second dataset of the same name
    name = datasets.free_name("%s #%d - %s - %s - %s - %s" % (shown(title, 150), comp_id,
                                                            shown(str(phase.get("name", "")), 60), label, today,
                                                            file.sha256[:8]), own)
    description = ("%s of phase %s (id %s) of competition %d (%s), released %s by codabench.py from %s; sha256:%s"
                   % (label, phase.get("name"), phase.get("id"), comp_id, title, today, file.name, file.sha256))
    key = str(datasets.upload_dataset(site, file, kind, name=name, description=description[:1000]).get("key"))
    tell("%s: uploaded %s (%d bytes, served back whole) as %s dataset %s, \"%s\"" % (where, shown(file.name),
                                                                                   file.size, label, key, name))
    return _dataset_id(site, key, owner, kind), key, True


def release_one(site: Site, comp_id: int, phase_arg: str, folder: str, several: bool = False,
                today: str = "", say: Callable[[str], None] = print) -> List[str]:
    """Attach the release in ``folder`` to one competition's phase; the lines it printed."""
    comp = resources.competition(site, comp_id)
    phase = phases.phase_of(comp, phase_arg)
    phases.ordered(comp)
    folder = folder_for(comp, folder, phase, several)
    files = release_files(folder)
    today = today or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    phase_id = int(phase["id"])
    where = phases.where(comp_id, phase)
    lines: List[str] = []

    def tell(line: str) -> None:
        lines.append(line)
        say(line)

    later: List[str] = []  # what the plan says of the tasks, said after the phase's datasets
    plan = reference.release_plan(site, comp, phase, folder, later.append)  # a gold zip in the folder: refused here
    start = phases.utc(phase.get("start"))
    if start is not None and start > phases.now_utc():
        # the competition API lists every phase's dataset keys to any visitor: what goes up now is public now
        tell("%s: note: the phase starts %s; what this release uploads can be taken by anyone from now on "
             "(the site lists its keys to every visitor), not from the phase's start" % (where, shown(str(phase.get("start")))))
    changes: Dict[str, int] = {}
    expected: Dict[str, Tuple[int, str]] = {}
    for kind, _, label in KINDS:
        if kind in files:
            dataset_id, key, changed = dataset_for(site, comp, phase, kind, label, datasets.local(files[kind]), today,
                                                   tell)
            expected[kind] = (dataset_id, key)
            if changed:
                changes[kind] = dataset_id
    if changes:
        site.call("PATCH", "/api/phases/%d/" % phase_id, changes, what="setting %s of %s" % (", ".join(changes), where))
    # read back as the competition page loads it
    phase = phases.phase_of(resources.competition(site, comp_id), str(phase_id))
    for kind, (dataset_id, key) in expected.items():
        now = phase.get(kind) or {}
        got = now.get("id") if isinstance(now, dict) else now
        if got != dataset_id or not isinstance(now, dict) or now.get("key") != key:
            raise CodabenchError("%s: after the change the phase's %s is %s, not dataset %s: set it in the editor "
                                 "(Edit > Phases > %s)" % (where, kind, shown(str(got)), key, kind.replace("_", " ")))
    listed = "; ".join("%s \"%s\" (%s)" % (label, shown((phase.get(kind) or {}).get("name", ""), 300), expected[kind][1])
                       for kind, _, label in KINDS if kind in expected)
    tell("%s now lists: %s%s" % (where, listed, "" if changes else " (nothing changed)"))
    for line in later:
        tell(line)
    for path, tasks in plan.items():
        reference.set_reference(site, comp_id, phase, [t for t in phases.tasks_of(phase)
                                                       if str(t.get("id")) in {str(x.get("id")) for x in tasks}],
                                path, today, tell)
    return lines


def release(site: Site, competitions: List[int], phase_arg: str, folder: str, today: str = "",
            say: Callable[[str], None] = print) -> None:
    several = len(competitions) > 1
    for comp_id in competitions:
        release_one(site, comp_id, phase_arg, folder, several, today, say)
