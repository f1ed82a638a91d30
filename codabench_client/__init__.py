"""The organiser's side of a Codabench competition, through the site's REST API (standard library
HTTP only), behind ``codabench.py``:

- ``site``: one call to the site's API, the token, the site's answers as one-line errors
  (``errors``), pagination; underneath it ``transport`` (the guarded HTTP: same-origin redirects,
  one deadline per answer, the loopback rule), and ``shapes`` (what the site answers, checked for
  the shape the client reads);
- ``resources``: the competition and its phases (by id or name), datasets (the presigned-URL
  upload the site's own pages do), the bundle upload and its unpacker;
- ``release``: a held-back phase's public data and starting kit attached to the phase;
- ``download``: a phase's submissions and the results export as a folder ``rank_submissions.py``
  reads (the bulk download's names), resumable; ``download_folder``: that folder (OUT), its
  manifest and tables;
- ``lifecycle``: publish, a held-back phase's reference data set on its task when due (the
  stand-in on release, the gold by ``attach-gold``), failed migrated copies re-run, fact sheets
  copied to migrated submissions, the kit's baseline submitted;
- ``check``: what an anonymous visitor can take.

What the endpoints answer was read in Codabench's ``src/apps/api/`` (views, serializers, urls) and
recorded from a real site (``tests/fixtures/codabench/``); nothing of the platform is copied here.
"""
