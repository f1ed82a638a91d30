"""The guarded HTTP underneath every call to a Codabench site (standard library only): http and
https only, redirects followed within the site's origin (the token dropped elsewhere, a ``file:``
or another machine's ``http:`` refused), one deadline for a whole answer however slowly its bytes
come, and the loopback rule (``http`` to this machine needs no flag)."""

from __future__ import annotations

import functools
import http.client
import ipaddress
import socket
import threading
import time
import urllib.parse
import urllib.request
from typing import Callable, Optional, Tuple

from .errors import CodabenchError

# A file (a submission, a dataset) may take longer than --timeout: its deadline grows by one second
# per MIN_FILE_RATE bytes received (or sent); a site dripping bytes slower than that is cut off.
MIN_FILE_RATE = 64 * 1024
READ_CHUNK = 1 << 16


class SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects, dropping the token when the target is another origin (a dataset key's
    download redirects to the storage's URL); a target the site may not send us to (``file:``,
    ``ftp:``, http to another machine, another origin than the site's and its storage's) ends the
    request (``Site.checked_url``, given the target, what it is and where it came from)."""

    def __init__(self, check: Callable[[str, str, str], str]) -> None:
        super().__init__()
        self.check = check

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        what = "the redirect of %s %s" % (req.get_method(), urllib.parse.urlsplit(req.full_url).path)
        newurl = self.check(urllib.parse.urljoin(req.full_url, newurl), what, req.full_url)
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            new.deadline = getattr(req, "deadline", None)
            if origin(newurl) != origin(req.full_url) or "/api/" not in urllib.parse.urlsplit(newurl).path:
                new.remove_header("Authorization")
        return new


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Deadline:
    """The end of one answer, whatever the site does: a thread shuts the answer's sockets down when
    it passes, which ends a read in progress (a per-read time-out never ends an answer dripped one
    byte at a time). ``extend`` moves the end (a file's bytes as they arrive)."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.expired = False
        self._sockets = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        threading.Thread(target=self._watch, daemon=True, name="codabench-deadline").start()

    def _watch(self) -> None:
        while True:
            left = self.end - time.monotonic()
            if left <= 0:
                break
            if self._done.wait(left):
                return
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def watch(self, sock) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def extend(self, seconds: float) -> None:
        self.end += seconds

    def close(self) -> None:
        self._done.set()


def _shut(sock) -> None:
    try:
        socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's: also under TLS
    except (OSError, TypeError):
        pass


def _watched(base):
    class Watched(base):
        """A connection whose socket the request's ``Deadline`` can shut down."""

        def __init__(self, *args, deadline: Optional[Deadline] = None, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._deadline = deadline

        def connect(self) -> None:
            super().connect()
            if self._deadline is not None:
                self._deadline.watch(self.sock)
    return Watched


_HTTPConnection = _watched(http.client.HTTPConnection)
_HTTPSConnection = _watched(http.client.HTTPSConnection)


class _HTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(functools.partial(_HTTPConnection, deadline=getattr(req, "deadline", None)), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(functools.partial(_HTTPSConnection, deadline=getattr(req, "deadline", None)), req,
                            context=self._context)


def guarded_opener(redirects) -> urllib.request.OpenerDirector:
    """http and https only: no ``file:``, ``ftp:`` or ``data:`` handler, whatever a URL says."""
    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), urllib.request.UnknownHandler(), _HTTPHandler(), _HTTPSHandler(),
                    urllib.request.HTTPDefaultErrorHandler(), redirects, urllib.request.HTTPErrorProcessor()):
        opener.add_handler(handler)
    return opener


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost``, 127.0.0.0/8, ::1)."""
    host = (host or "").strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def origin(url: str) -> Tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


class Answer:
    """An open answer: ``status``, ``headers`` and ``read``, within the request's deadline. A
    file-like object (``with``); closing it ends the deadline's watch."""

    def __init__(self, response, deadline: Deadline, what: str, host: str, timeout: float, per_byte: bool) -> None:
        self._response, self._deadline = response, deadline
        self._what, self._host, self._timeout, self._per_byte = what, host, timeout, per_byte
        self.status = getattr(response, "status", None) or getattr(response, "code", None)
        self.code = self.status
        self.headers = response.headers

    def expired_error(self) -> "CodabenchError":
        return CodabenchError("%s: no answer from %s within %g s%s" % (
            self._what, self._host, self._timeout, " (and the time its bytes allow)" if self._per_byte else ""))

    def read(self, limit: int = -1) -> bytes:
        """Up to ``limit`` bytes (-1: all), read a chunk at a time so that the deadline holds; a
        CodabenchError when it passed."""
        parts, got = [], 0
        read = getattr(self._response, "read1", None) or self._response.read
        while limit < 0 or got < limit:
            want = READ_CHUNK if limit < 0 else min(READ_CHUNK, limit - got)
            try:
                chunk = read(want)
            except (http.client.HTTPException, OSError, ValueError):
                if self._deadline.expired:
                    raise self.expired_error() from None
                raise
            if self._deadline.expired:
                raise self.expired_error()
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
            if self._per_byte:
                self._deadline.extend(len(chunk) / MIN_FILE_RATE)
        return b"".join(parts)

    def close(self) -> None:
        self._deadline.close()
        self._response.close()

    def __enter__(self) -> "Answer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
