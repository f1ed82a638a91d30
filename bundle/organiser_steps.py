"""What the build tells the organiser about one competition: each file it wrote and what to do with
it, the steps on the platform in order with their dates and commands, and what the upload still owes."""

from __future__ import annotations

import hashlib
import os
import posixpath
import shlex
from typing import List

from .held_back import GOLD, STAND_IN
from .keys import V15_YAML
from .upload import KIT_ZIP, UPLOAD, Upload


def written_lines(upload: Upload, out_dir: str) -> List[str]:
    """One line per file of ``upload`` written under ``out_dir`` (its size, sha256 and use), then the
    organiser's steps."""
    base = os.path.join(out_dir, upload.subfolder)
    held = {where for _, _, where, _ in upload.pending}
    lines = []
    for name in sorted(upload.files):
        path = os.path.join(base, name)
        digest = hashlib.sha256(upload.files[name]).hexdigest()
        if name == UPLOAD:
            where = ("upload to Codabench (codabench.org: it reads competition.yaml), or to a self-hosted "
                     "Codalab v1.5 (it reads %s)" % V15_YAML)
        elif name == KIT_ZIP:
            where = "for participants (also inside the upload)"
        elif name in held:
            where = "held back: %s (below)" % _when(next(due for _, _, w, due in upload.pending if w == name))
        else:
            where = "held back: attach it when its phase opens (below)"
        lines.append("wrote %s (%d bytes, sha256 %s): %s" % (path, len(upload.files[name]), digest, where))
    return lines + organiser_steps(upload, out_dir)


def organiser_steps(upload: Upload, out_dir: str) -> List[str]:
    """The organiser's steps for one competition, in order, each with when it is run."""
    base = os.path.join(out_dir, upload.subfolder)
    short = os.path.relpath(base) if not os.path.relpath(base).startswith("..") else base
    lines = ["steps%s, in order (Codabench by command; Codalab v1.5: the same files at the same times in the phase "
             "editor's Public data, Starting kit and Reference data fields):"
             % (" (track %s)" % upload.subfolder if upload.subfolder else ""),
             "  now: .venv/bin/python codabench.py upload %s, then codabench.py publish COMPETITION"
             % shlex.quote(os.path.join(short, UPLOAD))]
    blind_due = {label: due for label, kind, _, due in upload.pending if kind == STAND_IN}
    for label, public, kit in upload.releases:
        folder = os.path.join(short, os.path.dirname(public))
        what = "public data, starting kit" + (" and reference data (the blind stand-in, no answers)"
                                              if label in blind_due else "")
        lines.append("  when phase %s opens: .venv/bin/python codabench.py release COMPETITION %s %s/   (%s)"
                     % (label, shlex.quote(label), shlex.quote(folder), what))
    for label, kind, where, due in upload.pending:
        if kind == GOLD:
            when, command = _when(due), due[len(_when(due)) + 2:]
            lines.append("  %s: .venv/bin/python %s" % (when, command.replace(
                "dist/" + posixpath.join(upload.subfolder, where), shlex.quote(os.path.join(short, where)))))
    return lines


def _when(due: str) -> str:
    """The when of a held-back zip's due text (``schedule.due_text``)."""
    return due.split(": codabench.py", 1)[0]


def upload_line(upload: Upload) -> str:
    """The build's last line for one competition: what the upload holds and what is still owed."""
    prefix = "upload%s: " % (" (track %s)" % upload.subfolder if upload.subfolder else "")
    if not upload.pending and not upload.releases:
        return prefix + "%s holds every phase's data; nothing is owed" % UPLOAD
    owed = ["%s's %s %s" % (label, kind, _when(due)) for label, kind, _, due in upload.pending]
    owed += ["%s's public data and starting kit when it opens" % label for label, _, _ in upload.releases
             if not any(label == other and kind == STAND_IN for other, kind, _, _ in upload.pending)]
    return prefix + ("%s holds the first phase's data and, for each later phase, a placeholder; owed on the "
                     "platform by the steps above: %s" % (UPLOAD, "; ".join(owed)))
