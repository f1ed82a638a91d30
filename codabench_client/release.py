"""Release day: a held-back phase's public data and starting kit (``build_bundle.py`` writes them
to ``dist/release_<folder>/``) uploaded as datasets of their types and set on the phase
(``PATCH /api/phases/<id>/``: ``PhaseSerializer`` has ``public_data`` and ``starting_kit``
writable, by dataset id, as the competition editor's phase form sets them), then read back.

Idempotent: each dataset's description carries the file's sha256; a file the phase already has is
left alone, and one uploaded earlier (a run stopped before the phase was set) is reused, not
uploaded again.
"""

from __future__ import annotations

import datetime
import os
import re
import stat
from typing import Callable, Dict, List, Tuple

from ranking.names import shown

from . import lifecycle, resources
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


def _dataset_id(site: Site, kind: str, key: str) -> int:
    found = [d for d in site.pages("/api/datasets/", what="the new dataset", _type="dataset", key=key)
             if d.get("key") == key]
    if not found:
        raise CodabenchError("dataset %s was uploaded but the site does not list it among your datasets" % key)
    return identifier(found[0].get("id"), "dataset %s, id" % key)


def release_one(site: Site, comp_id: int, phase_arg: str, folder: str, several: bool = False,
                today: str = "", say: Callable[[str], None] = print) -> List[str]:
    """Attach the release in ``folder`` to one competition's phase; the lines it printed."""
    comp = resources.competition(site, comp_id)
    phase = resources.phase_of(comp, phase_arg)
    folder = folder_for(comp, folder, phase, several)
    files = release_files(folder)
    today = today or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    title, phase_name, phase_id = str(comp.get("title", "")), str(phase.get("name", "")), int(phase["id"])
    where = "competition %d, phase %s (id %d)" % (comp_id, shown(phase_name), phase_id)
    lines: List[str] = []

    def tell(line: str) -> None:
        lines.append(line)
        say(line)

    start = lifecycle._utc(phase.get("start"))
    if start is not None and start > lifecycle.now_utc():
        # the competition API lists every phase's dataset keys to any visitor: what goes up now is public now
        tell("%s: note: the phase starts %s; what this release uploads can be taken by anyone from now on "
             "(the site lists its keys to every visitor), not from the phase's start" % (where, shown(str(phase.get("start")))))
    changes: Dict[str, int] = {}
    expected: Dict[str, Tuple[int, str]] = {}
    for kind, _, label in KINDS:
        if kind not in files:
            continue
        path = files[kind]
        tag = "sha256:" + resources.sha256_of(path)
        current = phase.get(kind) or {}
        if isinstance(current, dict) and tag in str(current.get("description") or ""):
            tell("%s: %s already %s (dataset %s): unchanged" % (where, label, shown(current.get("name", ""), 300),
                                                                current.get("key")))
            expected[kind] = (identifier(current.get("id"), "%s, %s, id" % (where, kind)), str(current.get("key")))
            continue
        # one uploaded for this phase by a run that stopped before setting it (the same file for
        # another competition, e.g. two tracks with the same inputs, gets its own dataset and name)
        mark = "of phase %s of competition %d (" % (phase_name, comp_id)
        earlier = [d for d in resources.my_datasets(site, kind)
                   if tag in str(d.get("description") or "") and mark in str(d.get("description") or "")]
        if earlier:
            dataset_id, key = identifier(earlier[0].get("id"), "your %s datasets, id" % label), str(earlier[0].get("key"))
            tell("%s: %s %s was uploaded before (dataset %s): reused" % (where, label, shown(os.path.basename(path)), key))
        else:
            # unique per competition and content: the site refuses a second dataset of the same name
            name = "%s #%d - %s - %s - %s - %s" % (shown(title, 150), comp_id, shown(phase_name, 60), label, today,
                                                  tag[len("sha256:"):][:8])
            description = ("%s of phase %s of competition %d (%s), released %s by codabench.py from %s; %s"
                           % (label, phase_name, comp_id, title, today, os.path.basename(path), tag))
            done = resources.upload_dataset(site, path, kind, name=name, description=description[:1000])
            key = str(done.get("key"))
            dataset_id = _dataset_id(site, kind, key)
            tell("%s: uploaded %s (%d bytes) as %s dataset %s, \"%s\"" % (where, shown(os.path.basename(path)),
                                                                          os.path.getsize(path), label, key, name))
        changes[kind] = dataset_id
        expected[kind] = (dataset_id, key)
    if changes:
        site.call("PATCH", "/api/phases/%d/" % phase_id, changes, what="setting %s of %s" % (", ".join(changes), where))
    # read back as the competition page loads it
    phase = resources.phase_of(resources.competition(site, comp_id), str(phase_id))
    for kind, (dataset_id, key) in expected.items():
        now = phase.get(kind) or {}
        got = now.get("id") if isinstance(now, dict) else now
        if got != dataset_id:
            raise CodabenchError("%s: after the change the phase's %s is %s, not dataset %s: set it in the editor "
                                 "(Edit > Phases > %s)" % (where, kind, shown(str(got)), key, kind.replace("_", " ")))
    listed = "; ".join("%s \"%s\" (%s)" % (label, shown((phase.get(kind) or {}).get("name", ""), 300), expected[kind][1])
                       for kind, _, label in KINDS if kind in expected)
    tell("%s now lists: %s%s" % (where, listed, "" if changes else " (nothing changed)"))
    lifecycle.release_reference(site, comp_id, phase, folder, today, tell)
    return lines


def release(site: Site, competitions: List[int], phase_arg: str, folder: str, today: str = "",
            say: Callable[[str], None] = print) -> None:
    several = len(competitions) > 1
    for comp_id in competitions:
        release_one(site, comp_id, phase_arg, folder, several, today, say)
