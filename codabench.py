#!/usr/bin/env python3
"""The organiser's side of the competition on Codabench, through the site's REST API.

    export CODABENCH_TOKEN=...          # or --token-file FILE; never printed
    .venv/bin/python codabench.py [--site URL] upload dist/competition_bundle.zip
    .venv/bin/python codabench.py publish COMPETITION
    .venv/bin/python codabench.py release COMPETITION PHASE dist/release_test/
    .venv/bin/python codabench.py attach-gold COMPETITION PHASE dist/release_test/gold/test_reference_data.zip
    .venv/bin/python codabench.py copy-fact-sheets COMPETITION PHASE
    .venv/bin/python codabench.py baselines COMPETITION PHASE dist/competition_bundle.zip [--multilabel random|majority]
    .venv/bin/python codabench.py download COMPETITION PHASE OUT [--select all|leaderboard|last]
    .venv/bin/python codabench.py check COMPETITION

COMPETITION: its id or its page's URL (``release``: several, comma-separated, for a
``--per-track`` build, with the build's ``dist/`` as the folder); PHASE: its id, or its name when
only one phase has it. The token is the organiser's (``POST /api/api-token-auth/`` with the
username and password, or the profile page), sent as ``Authorization: Token <token>`` to the site
only.

Each command checks what the site holds, not its own records: a file counts as on the site once
the site serves its bytes (size and sha256 read back); phases are ordered by the site's ``index``
(a competition whose phases have none is refused); every list the site gives is filtered again by
competition, phase and owner. Each success says what the site now holds; a second run says
``unchanged``.

- ``upload``: the bundle as a dataset of type competition_bundle; waits for the unpacker; prints
  the competition's id and URL, or the platform's error (a bundle of the same bytes that made a
  competition already: that competition).
- ``publish``: the competition published (visitors get 404 until then).
- ``release``: the phase's public data and starting kit set on the phase (datasets the site
  serves for the competition already reused), and a blind phase's reference data (the stand-in
  its placeholder names) set on its task, then read back; never a zip whose placeholder says gold.
- ``attach-gold``: a held-back phase's gold (the zip its placeholder names, by sha256) set on its
  task, refused before the phase before it has ended on the site and in the build's schedule;
  failed migrated copies (scored on the placeholder) re-run.
- ``copy-fact-sheets``: each migrated submission of the phase gets its source's fact-sheet answers.
- ``baselines``: the kit's baseline, made from the phase's public data (a public data zip or folder,
  or the upload for the first phase), submitted from the token's account with a fact sheet that
  marks it (team ``Baseline (organisers)``); Force_Last shows one row per account, so one baseline
  per account.
- ``download``: the phase's submissions (all, those on the board, or each participant's last
  finished one) and the results export into OUT, which ``rank_submissions.py`` reads
  (``rank_submissions.py OUT --results OUT/results.json ...``); resumes where it stopped.
- ``check``: what an anonymous visitor can take (gold by dataset key, a hidden board, a
  submission's details); ``closed`` for what is not yet due (a later phase's placeholder, with the
  site's dates), ``open`` for what is public by design (a phase's practice gold: not blind, no
  later phase scoring on it) or due, ``OPEN`` otherwise; exit 1 when gold can be taken before it is
  due.

Every failure is one line (exit 1; bad arguments exit 2), never a traceback or the token.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence

from codabench_client import baseline
from codabench_client import check as check_module
from codabench_client import download as download_module
from codabench_client import lifecycle, migration
from codabench_client import release as release_module
from codabench_client import resources
from codabench_client import upload as upload_module
from codabench_client.errors import CodabenchError
from codabench_client.site import Site
from ranking.names import shown

DEFAULT_SITE = "https://www.codabench.org"


def read_token(args) -> Optional[str]:
    """The token from --token-file, else CODABENCH_TOKEN; checked for shape, never shown."""
    if args.token_file:
        try:
            with open(args.token_file, encoding="utf-8") as handle:
                text = handle.read(4096)
        except (OSError, UnicodeDecodeError) as error:
            raise CodabenchError("--token-file %s cannot be read (%s)"
                                 % (shown(args.token_file), getattr(error, "strerror", None) or type(error).__name__))
        where = "--token-file %s" % shown(args.token_file)
    else:
        text = os.environ.get("CODABENCH_TOKEN", "")
        where = "CODABENCH_TOKEN"
    token = text.strip()
    if not token:
        return None
    if any(c.isspace() or not c.isprintable() for c in token) or len(token) > 200:
        raise CodabenchError("%s does not hold one token (one line of letters and digits, as the site gives it)" % where)
    return token


def competitions_of(text: str) -> List[int]:
    return [resources.competition_id(part) for part in text.split(",") if part.strip()]


class Scrubbed:
    """A text stream that never writes the token: whatever a site echoes (a title, an error page,
    an answer that repeats the request) is printed with ``<token>`` in its place."""

    def __init__(self, stream, token: str) -> None:
        self.stream, self.token = stream, token

    def write(self, text: str) -> int:
        return self.stream.write(text.replace(self.token, "<token>"))

    def __getattr__(self, name):
        return getattr(self.stream, name)


def run(args) -> int:
    token = read_token(args)
    args.token_read = token  # for main's last line, which is printed after the streams are restored
    if not token:
        return run_with(args, token)
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Scrubbed(sys.stdout, token), Scrubbed(sys.stderr, token)
    try:
        return run_with(args, token)
    except CodabenchError as error:
        raise CodabenchError(str(error).replace(token, "<token>")) from None
    finally:
        sys.stdout, sys.stderr = streams


def run_with(args, token: Optional[str]) -> int:
    site = Site(args.site, token, args.timeout, args.allow_http)
    if args.command != "check" and not token:
        raise CodabenchError("%s needs the organiser's token: set CODABENCH_TOKEN or give --token-file" % args.command)
    if args.command == "upload":
        if not os.path.isfile(args.bundle):
            raise CodabenchError("%s: no such file (build it with build_bundle.py)" % shown(args.bundle))
        return upload_module.upload_bundle(site, args.bundle, args.wait)
    if args.command == "release":
        release_module.release(site, competitions_of(args.competition), args.phase, args.folder)
        return 0
    if args.command == "publish":
        for comp_id in competitions_of(args.competition):
            lifecycle.publish(site, comp_id)
        return 0
    if args.command == "attach-gold":
        return lifecycle.attach_gold(site, resources.competition_id(args.competition), args.phase, args.gold)
    if args.command == "baselines":
        return baseline.submit_baseline(site, resources.competition_id(args.competition), args.phase, args.public,
                                        args.multilabel)
    if args.command == "copy-fact-sheets":
        return migration.copy_fact_sheets(site, resources.competition_id(args.competition), args.phase)
    if args.command == "download":
        return download_module.download(site, resources.competition_id(args.competition), args.phase, args.out,
                                        args.select)
    return check_module.check(site, resources.competition_id(args.competition))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="The organiser's side of the competition on Codabench: upload, "
                                     "release a held-back phase, download every submission, check what a visitor "
                                     "can take.", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", default=os.environ.get("CODABENCH_SITE", DEFAULT_SITE),
                        help="the Codabench site (default: CODABENCH_SITE, else %s)" % DEFAULT_SITE)
    parser.add_argument("--token-file", help="a file holding the organiser's API token (default: CODABENCH_TOKEN)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds for each answer, whole (default 60; a file gets a second more per 64 KiB)")
    parser.add_argument("--allow-http", action="store_true",
                        help="allow an http:// --site on another machine (the token then travels unencrypted; "
                             "a warning is printed); http to this machine needs no flag")
    commands = parser.add_subparsers(dest="command", required=True)
    upload = commands.add_parser("upload", help="upload a competition bundle and wait for the unpacker")
    upload.add_argument("bundle", help="dist/competition_bundle.zip")
    upload.add_argument("--wait", type=float, default=900.0, help="seconds to wait for the unpacker (default 900)")
    release = commands.add_parser("release", help="attach a held-back phase's public data and starting kit")
    release.add_argument("competition", help="id or URL; several comma-separated for a --per-track build")
    release.add_argument("phase", help="the phase's name or id")
    release.add_argument("folder", help="dist/release_<phase>/ (or dist/ for several competitions)")
    publish = commands.add_parser("publish", help="publish the competition (visitors see it; participants register)")
    publish.add_argument("competition", help="id or URL; several comma-separated for a --per-track build")
    gold = commands.add_parser("attach-gold", help="set a held-back phase's gold once the phase before it has ended")
    gold.add_argument("competition")
    gold.add_argument("phase")
    gold.add_argument("gold", help="dist/release_<folder>/gold/<name>_reference_data.zip")
    facts = commands.add_parser("copy-fact-sheets", help="give migrated submissions their source's fact-sheet answers")
    facts.add_argument("competition")
    facts.add_argument("phase", help="the phase the submissions were migrated into (Post-Evaluation)")
    baselines = commands.add_parser("baselines", help="submit the kit's baseline from your account, marked as one")
    baselines.add_argument("competition")
    baselines.add_argument("phase")
    baselines.add_argument("public", help="the phase's public data (zip or folder), or dist/competition_bundle.zip "
                                          "for the first phase")
    baselines.add_argument("--multilabel", choices=("random", "majority"), default="random",
                           help="which of the kit's ST1/ST3 baselines (default: the tasks' random baseline)")
    download = commands.add_parser("download", help="every submission of a phase and the results export")
    download.add_argument("competition")
    download.add_argument("phase")
    download.add_argument("out", help="the folder to write (rank_submissions.py reads it)")
    download.add_argument("--select", choices=download_module.SELECT, default="all",
                          help="all submissions (default), those on the board, or each participant's last finished")
    check = commands.add_parser("check", help="what an anonymous visitor can take; exit 1 when gold can be taken before it is due")
    check.add_argument("competition")
    args = parser.parse_args(argv)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    try:
        return run(args)
    except CodabenchError as error:
        print("codabench: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("codabench: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    except OSError as error:
        print("codabench: %s%s" % (error.strerror or error, ": " + shown(str(error.filename)) if error.filename else ""),
              file=sys.stderr)
        return 1
    except (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError) as error:
        # a shape of the site's answers no check above foresaw: one line, never a traceback or the token
        token = getattr(args, "token_read", None) or "\0"
        print("codabench: %s: the site's answer has a shape this client does not read (%s: %s)"
              % (args.command, type(error).__name__, shown(str(error), 120).replace(token, "<token>")),
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    from scorer.run.closed_pipe import exit_status  # (on sys.path: ranking/__init__.py)
    sys.exit(exit_status(main))
