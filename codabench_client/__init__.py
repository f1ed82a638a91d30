"""The organiser's side of a Codabench competition, through the site's REST API (standard library
HTTP only), behind ``codabench.py``:

- ``site``: one call to the site's API, the token, the site's answers as one-line errors
  (``errors``), pagination, where the client may go (the site and its one storage); underneath it
  ``transport`` (the guarded HTTP: redirects, one deadline per answer, the loopback rule), and
  ``shapes`` (what the site answers, checked for the shape the client reads);
- ``resources``: the competition; ``phases``: its phases by id and in the site's order, their
  tasks and dates; ``datasets``: what the site serves as a dataset (bytes read back), the
  organiser's own datasets, the presigned-URL upload the site's own pages do;
- ``upload``: the bundle and its unpacker; ``release``: a held-back phase's public data and
  starting kit attached to the phase; ``reference``: a task's reference data (the build's
  placeholder, the zip it names set in its place); ``lifecycle``: publish, the gold attached when
  due; ``migration``: failed migrated copies re-run, fact sheets copied to migrated submissions;
  ``baseline``: the kit's baseline submitted from the organiser's account;
- ``download``: a phase's submissions and the results export as a folder ``rank_submissions.py``
  reads (the bulk download's names), resumable; ``download_folder``: that folder (OUT), its
  manifest and tables;
- ``check``: what an anonymous visitor can take; ``gold_by_key``: each task's reference data by
  its key, and whether it is due.

What the endpoints answer was read in Codabench's ``src/apps/api/`` (views, serializers, urls) and
recorded from a real site (``tests/fixtures/codabench/``); nothing of the platform is copied here.
"""
