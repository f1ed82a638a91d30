"""The bundle upload: a dataset of type ``competition_bundle``, completed once the site serves its
bytes, then the unpacker (``GET /api/competitions/<status id>/creation_status/`` -> ``status``:
``Starting``, ``Finished``, ``Failed``; ``details``, the platform's error; ``resulting_competition``).

A bundle whose bytes the site already serves as one of the organiser's bundles, with the
competition the unpacker made from it (the dataset list's ``competition``:
``DataDetailSerializer.get_competition``), is not uploaded again: that competition is named.
"""

from __future__ import annotations

import time
from typing import Callable, Optional

from ranking.names import shown

from . import datasets, resources
from .errors import CodabenchError, HTTPStatusError
from .shapes import identifier, record
from .site import Site


def wait_for_unpacker(site: Site, status_id: int, timeout: float, poll: float = 2.0,
                      sleep: Callable[[float], None] = time.sleep) -> int:
    """The competition the unpacker made from a bundle; its error (``details``) in one line."""
    waited = 0.0
    while True:
        what = "the unpacker's status (status id %d)" % status_id
        state = record(site.get("/api/competitions/%d/creation_status/" % status_id, what=what) or {}, what)
        status = state.get("status")
        if status == "Finished" and state.get("resulting_competition"):
            return identifier(state["resulting_competition"], what + ", resulting_competition")
        if status == "Failed":
            details = " ".join(str(state.get("details") or "no details").split())
            raise CodabenchError("the site could not unpack the bundle: %s" % shown(details, 400))
        if waited >= timeout:
            raise CodabenchError("the unpacker had not finished after %g s (status id %d, status %s): the "
                                 "competition may still appear under Benchmarks > Management; do not upload again "
                                 "before checking" % (timeout, status_id, shown(str(status))))
        sleep(poll)
        waited += poll


def earlier_competition(site: Site, bundle: datasets.Local) -> Optional[dict]:
    """The competition made from a bundle of the organiser's whose served bytes are ``bundle``'s,
    when the site still has it; None otherwise."""
    owner = datasets.me(site)
    for dataset in datasets.mine(site, "competition_bundle", owner, selection="bundle"):
        made = dataset.get("competition")
        if not isinstance(made, dict) or made.get("id") is None or not datasets.serves(site, dataset, bundle):
            continue
        comp_id = identifier(made.get("id"), "your bundle %s, competition" % dataset.get("key"))
        try:
            return resources.competition(site, comp_id)
        except HTTPStatusError as error:
            if error.code != 404:
                raise
    return None


def phases_line(comp: dict) -> str:
    return ", ".join("%s (id %s)" % (shown(str(p.get("name", ""))), p.get("id")) for p in comp["phases"])


def upload_bundle(site: Site, path: str, wait: float, say: Callable[[str], None] = print) -> int:
    """Upload the bundle at ``path`` and wait for the unpacker; say the competition it made."""
    bundle = datasets.local(path)
    comp = earlier_competition(site, bundle)
    if comp is not None:
        say("competition %s: %s/competitions/%s/ was made from these bytes (%s, sha256 %s...) already; phases: %s: "
            "unchanged (to make another competition from it, upload it in the site's pages)"
            % (comp["id"], site.base, comp["id"], shown(bundle.name), bundle.sha256[:12], phases_line(comp)))
        return 0
    done = datasets.upload_dataset(site, bundle, "competition_bundle")
    if "status_id" not in done:
        raise CodabenchError("the site took the file but started no unpacker (no status_id in its answer)")
    status_id = identifier(done["status_id"], "the site's answer to the upload, status_id")
    say("uploaded %s (%d bytes, served back whole); the site unpacks it (status id %d)"
        % (shown(path), bundle.size, status_id))
    comp_id = wait_for_unpacker(site, status_id, wait)
    comp = resources.competition(site, comp_id)
    say("competition %d: %s/competitions/%d/  %s; phases: %s"
        % (comp_id, site.base, comp_id, shown(str(comp.get("title", "")), 300), phases_line(comp)))
    return 0
