"""The organiser's side of a Codabench competition, through the site's REST API (standard library
HTTP only), behind ``codabench.py``:

- ``site``: one HTTP call, the token, the site's answers as one-line errors, pagination;
- ``resources``: the competition and its phases (by id or name), datasets (the presigned-URL
  upload the site's own pages do), the bundle upload and its unpacker;
- ``release``: a held-back phase's public data and starting kit attached to the phase;
- ``download``: a phase's submissions and the results export as a folder ``rank_submissions.py``
  reads (the bulk download's names), resumable;
- ``check``: what an anonymous visitor can take.

What the endpoints answer was read in Codabench's ``src/apps/api/`` (views, serializers, urls) and
recorded from a real site (``tests/fixtures/codabench/``); nothing of the platform is copied here.
"""
