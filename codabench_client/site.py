"""One HTTP call to a Codabench site, and every way it can go wrong as one line.

The token (DRF ``TokenAuthentication``: ``Authorization: Token <key>``) is sent to the site's API
(``<site>/api/...``) only: never to the storage URLs the site hands out (presigned S3 URLs), nor
after a redirect elsewhere; no message carries it.
"""

from __future__ import annotations

import functools
import http.client
import ipaddress
import json
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Callable, Dict, Iterator, Optional, Tuple

from ranking.names import shown

USER_AGENT = "codabench.py (organiser tools of this competition bundle)"
MAX_JSON_BYTES = 64 * 1024 ** 2  # an API answer larger than this is not read
MAX_JSON_DEPTH = 64  # Codabench's answers nest a few levels; deeper is not read
# A file (a submission, a dataset) may take longer than --timeout: its deadline grows by one second
# per MIN_FILE_RATE bytes received (or sent); a site dripping bytes slower than that is cut off.
MIN_FILE_RATE = 64 * 1024
READ_CHUNK = 1 << 16
MAX_PAGES = 10000  # of one list (a million submissions at Codabench's page sizes)


class CodabenchError(Exception):
    """One line for the organiser: what failed, and what the site said."""


class URLRefused(CodabenchError):
    """A URL the site gave that the client does not open (its scheme or host)."""


class HTTPStatusError(CodabenchError):
    """The site (or its storage) answered with an HTTP error ``code``."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects, dropping the token when the target is another origin (a dataset key's
    download redirects to the storage's URL); a target the site may not send us to (``file:``,
    ``ftp:``, http to another machine) ends the request (``Site.checked_url``)."""

    def __init__(self, check: Callable[[str, str], str]) -> None:
        super().__init__()
        self.check = check

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        newurl = self.check(urllib.parse.urljoin(req.full_url, newurl), "a redirect")
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            new.deadline = getattr(req, "deadline", None)
            if _origin(newurl) != _origin(req.full_url) or "/api/" not in urllib.parse.urlsplit(newurl).path:
                new.remove_header("Authorization")
        return new


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class _Deadline:
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
        """A connection whose socket the request's ``_Deadline`` can shut down."""

        def __init__(self, *args, deadline: Optional[_Deadline] = None, **kwargs) -> None:
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


def _opener(redirects) -> urllib.request.OpenerDirector:
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


class Answer:
    """An open answer: ``status``, ``headers`` and ``read``, within the request's deadline. A
    file-like object (``with``); closing it ends the deadline's watch."""

    def __init__(self, response, deadline: _Deadline, what: str, host: str, timeout: float, per_byte: bool) -> None:
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


def _origin(url: str) -> Tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def platform_message(body: bytes, limit: int = 300) -> str:
    """The site's own error from an answer's body, in one line: DRF's ``{"detail": ...}``, a
    serializer's ``{"field": ["..."]}``, a list, or an HTML page's title."""
    text = body[:200000].decode("utf-8", "replace").strip()
    try:
        value = json.loads(text)
    except ValueError:
        lowered = text.lower()
        if "<message>" in lowered:  # the storage's (S3) XML error
            start = lowered.index("<message>") + 9
            end = lowered.find("</message>", start)
            text = text[start:end if end > 0 else start + 200]
        elif "<title>" in lowered:
            start = lowered.index("<title>") + 7
            end = lowered.find("</title>", start)
            text = text[start:end if end > 0 else start + 200]
        return shown(" ".join(text.split()), limit)

    def flat(item) -> str:
        if isinstance(item, dict):
            return "; ".join(("%s" % flat(v)) if k in ("detail", "error", "error_msg", "non_field_errors")
                             else "%s: %s" % (k, flat(v)) for k, v in item.items())
        if isinstance(item, list):
            return "; ".join(flat(v) for v in item)
        return str(item)

    return shown(" ".join(flat(value).split()), limit)


class Site:
    """A Codabench site at ``url`` (``https://www.codabench.org``), with an organiser's token or
    none (an anonymous visitor)."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60.0, allow_http: bool = False,
                 warn: Optional[Callable[[str], None]] = None):
        parts = urllib.parse.urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CodabenchError("--site %s: expected the site's address, e.g. https://www.codabench.org"
                                 % shown(url))
        if parts.scheme == "http" and not is_loopback(parts.hostname):
            if not allow_http:
                raise CodabenchError("--site %s: http would send the token and every answer unencrypted over the "
                                     "network; give the site's https address (or --allow-http, with a warning)"
                                     % shown(url))
            (warn or _warn)("warning: --site %s is http (--allow-http): the token and every answer travel "
                            "unencrypted" % shown(url))
        self.base = "%s://%s%s" % (parts.scheme, parts.netloc, parts.path.rstrip("/"))
        self.token = token
        self.timeout = timeout
        self.allow_http = allow_http
        self._opener = _opener(_SameOriginRedirects(self.checked_url))
        self._no_redirects = _opener(_NoRedirects())

    def anonymous(self) -> "Site":
        return Site(self.base, None, self.timeout, self.allow_http, warn=lambda line: None)

    def url(self, path: str) -> str:
        return path if "://" in path else self.base + "/" + path.lstrip("/")

    def checked_url(self, url: str, what: str = "") -> str:
        """``url`` when the client may open it: https, or http to this machine (or anywhere with
        --allow-http); a URL the site hands out (a file's, a page's, a redirect's) is never trusted
        for its scheme (``file:``, ``ftp:``, ``data:`` are refused, one line)."""
        parts = urllib.parse.urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            host = parts.hostname
        except ValueError:
            host = None
        if scheme == "https" and host:
            return url
        if scheme == "http" and host and (is_loopback(host) or self.allow_http):
            return url
        raise URLRefused("%s: the site gave the URL %s; only https (or http to this machine) is opened"
                             % (what or "a URL", shown(self._scrub(url), 120)))

    def _request(self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str]) -> urllib.request.Request:
        request = urllib.request.Request(url, data=data, method=method)  # (url already checked_url's)
        request.add_header("User-Agent", USER_AGENT)
        for key, value in headers.items():
            request.add_header(key, value)
        if self.token and self.is_api(url):
            request.add_header("Authorization", "Token " + self.token)
        return request

    def is_api(self, url: str) -> bool:
        """The token goes to the site's API only: not to file URLs, even on the same origin."""
        return _origin(url) == _origin(self.base) and \
            urllib.parse.urlsplit(url).path.startswith(urllib.parse.urlsplit(self.base).path + "/api/")

    def _scrub(self, text: str) -> str:
        return text.replace(self.token, "<token>") if self.token else text

    def scrubbed(self, error: "CodabenchError") -> "CodabenchError":
        """``error`` with the token taken out of its message (a site may echo the request)."""
        error.args = (self._scrub(str(error)),)
        return error

    def open(self, method: str, path: str, data: Optional[bytes] = None, headers: Optional[Dict[str, str]] = None,
             what: str = "", follow: bool = True) -> Answer:
        """The open answer (``Answer``: ``status``, ``headers``, ``read``) to one request, within one
        deadline for the whole answer (``--timeout``; for a file, plus a second per MIN_FILE_RATE
        bytes); every failure a CodabenchError naming ``what`` (default: the method and path)."""
        try:
            return self._open(method, path, data, headers, what, follow)
        except CodabenchError as error:
            raise self.scrubbed(error) from None

    def _open(self, method, path, data, headers, what, follow) -> Answer:
        url = self.url(path)
        what = what or "%s %s" % (method, urllib.parse.urlsplit(url).path)
        self.checked_url(url, what)
        per_byte = not self.is_api(url)  # a file (storage, dataset download): its bytes earn time
        deadline = _Deadline(self.timeout + (len(data) / MIN_FILE_RATE if data and per_byte else 0))
        request = self._request(method, url, data, headers or {})
        request.deadline = deadline
        opener = self._opener if follow else self._no_redirects
        late = CodabenchError("%s: no answer from %s within %g s" % (what, self._host(url), self.timeout))
        try:
            try:
                response = opener.open(request, timeout=self.timeout)
            except urllib.error.HTTPError as error:
                if not follow and 300 <= error.code < 400:
                    return Answer(error, deadline, what, self._host(url), self.timeout, per_byte)  # the redirect
                described = self.describe_http_error(error, what, url)
                if deadline.expired:
                    raise late from None
                raise HTTPStatusError(described, error.code) from None
        except CodabenchError:
            deadline.close()
            raise
        except (socket.timeout, TimeoutError):
            deadline.close()
            raise late from None
        except urllib.error.URLError as error:
            deadline.close()
            reason = error.reason
            if isinstance(reason, (socket.timeout, TimeoutError)) or deadline.expired:
                raise late from None
            raise CodabenchError("%s: cannot reach %s (%s)" % (what, self._host(url), shown(str(reason)))) from None
        except (http.client.HTTPException, ConnectionError, OSError, ValueError) as error:
            deadline.close()
            if deadline.expired:
                raise late from None
            raise CodabenchError("%s: the connection to %s broke (%s)"
                                 % (what, self._host(url), shown(str(error) or type(error).__name__))) from None
        return Answer(response, deadline, what, self._host(url), self.timeout, per_byte)

    def _host(self, url: str) -> str:
        return urllib.parse.urlsplit(url).netloc

    def describe_http_error(self, error: urllib.error.HTTPError, what: str, url: str = "") -> str:
        try:
            body = error.read(200000)
        except (OSError, http.client.HTTPException, ValueError):
            body = b""
        said = platform_message(body) if body else ""
        said = said or (error.reason if isinstance(error.reason, str) else "")
        # DRF answers 403 rather than 401 when SessionAuthentication comes first (Codabench's settings)
        if error.code == 401 or (error.code == 403 and ("credentials" in said.lower() or "token" in said.lower())):
            who = ("the site refused the token" if self.token
                   else "the site needs a token (CODABENCH_TOKEN or --token-file)")
            return "%s: %s (HTTP %d: %s)" % (what, who, error.code, said)
        if error.code == 403 and url and not self.is_api(url):
            return "%s: the storage refused it (HTTP 403: %s)" % (what, said)
        if error.code == 403:
            return "%s: not allowed with this token (HTTP 403: %s)" % (what, said)
        if error.code == 404:
            return "%s: not found on %s (HTTP 404)" % (what, self._host(self.base))
        return "%s: the site answered HTTP %d%s" % (what, error.code, ": " + said if said else "")

    def call(self, method: str, path: str, body=None, what: str = "", data: Optional[bytes] = None,
             headers: Optional[Dict[str, str]] = None):
        """The JSON answer to one request (``body`` sent as JSON); ``None`` for an empty answer. An
        answer over MAX_JSON_BYTES, nested deeper than MAX_JSON_DEPTH, not JSON or late is one
        CodabenchError line, without the token."""
        try:
            return self._call(method, path, body, what, data, headers)
        except CodabenchError as error:
            raise self.scrubbed(error) from None

    def _call(self, method, path, body, what, data, headers):
        headers = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        headers.setdefault("Accept", "application/json")
        with self.open(method, path, data, headers, what) as answer:
            try:
                raw = answer.read(MAX_JSON_BYTES + 1)
            except (http.client.HTTPException, OSError, ValueError) as error:
                raise CodabenchError("%s: the answer broke off (%s)"
                                     % (what or path, shown(str(error) or type(error).__name__))) from None
        if len(raw) > MAX_JSON_BYTES:
            raise CodabenchError("%s: the answer is over %d bytes" % (what or path, MAX_JSON_BYTES))
        if not raw.strip():
            return None
        try:
            value = json.loads(raw.decode("utf-8"))
        except RecursionError:
            raise CodabenchError("%s: the site's answer is nested too deeply to be read" % (what or path)) from None
        except ValueError:  # (UnicodeDecodeError too)
            raise CodabenchError("%s: the site's answer is not JSON (%s)"
                                 % (what or path, platform_message(raw, 120))) from None
        if not _depth_within(value, MAX_JSON_DEPTH):
            raise CodabenchError("%s: the site's answer nests more than %d levels" % (what or path, MAX_JSON_DEPTH))
        return value

    def get(self, path: str, what: str = "", **query):
        return self.call("GET", with_query(path, query), what=what)

    def pages(self, path: str, what: str = "", **query) -> Iterator[dict]:
        try:
            for item in self._pages(path, what, **query):
                yield item
        except CodabenchError as error:
            raise self.scrubbed(error) from None

    def _pages(self, path: str, what: str = "", **query) -> Iterator[dict]:
        """Every item of a list endpoint: a plain list (no pagination), or DRF's pages
        (``{"count", "next", "previous", "results"}``), following ``next``; the count each page
        gives must equal the items received."""
        url = with_query(path, query)
        received, count, seen = 0, None, set()
        while url:
            if len(seen) >= MAX_PAGES:
                raise CodabenchError("%s: the site's list runs over %d pages" % (what or path, MAX_PAGES))
            if url in seen:
                raise CodabenchError("%s: the site's pages loop (%s again)" % (what or path, shown(url)))
            seen.add(url)
            answer = self.call("GET", url, what=what)
            if isinstance(answer, list):
                for number, item in enumerate(answer, start=1):
                    yield record(item, "%s, item %d" % (what or path, number))
                return
            if not isinstance(answer, dict) or not isinstance(answer.get("results"), list):
                raise CodabenchError("%s: expected a list or a page of results from the site" % (what or path))
            count = answer.get("count", count)
            if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
                raise CodabenchError("%s: the site's page gives the count %s" % (what or path, shown(repr(count), 40)))
            for item in answer["results"]:
                received += 1
                if isinstance(count, int) and received > count:
                    raise CodabenchError("%s: the site listed %d items but its pages hold more"
                                         % (what or path, count))
                yield record(item, "%s, item %d" % (what or path, received))
            url = answer.get("next")
            if url is not None and not isinstance(url, str):
                raise CodabenchError("%s: the site's page gives %s as the next page" % (what or path,
                                                                                        shown(repr(url), 40)))
            if url and _origin(self.url(url)) != _origin(self.base):
                raise CodabenchError("%s: the next page is on another site (%s)" % (what or path, shown(url)))
        if isinstance(count, int) and received != count:
            raise CodabenchError("%s: the site listed %d items but its pages held %d" % (what or path, count, received))


def _warn(line: str) -> None:
    print("codabench: %s" % line, file=sys.stderr)


def _depth_within(value, limit: int) -> bool:
    """Whether no list or object in ``value`` is nested deeper than ``limit`` (no recursion)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def record(value, what: str) -> dict:
    """``value`` when it is a JSON object; one CodabenchError line naming ``what`` otherwise."""
    if not isinstance(value, dict):
        raise CodabenchError("%s: the site gave %s where an object was expected" % (what, _kind(value)))
    return value


def records(value, what: str) -> list:
    """``value`` when it is a list of JSON objects (None: empty); one line naming the item otherwise."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise CodabenchError("%s: the site gave %s where a list was expected" % (what, _kind(value)))
    return [record(item, "%s, item %d" % (what, number)) for number, item in enumerate(value, start=1)]


def identifier(value, what: str) -> int:
    """An id the site gave (a number, or its digits): one line naming ``what`` otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 63:
        return value
    if isinstance(value, str) and value.isdigit() and value.isascii() and len(value) < 19:
        return int(value)
    raise CodabenchError("%s: the site gave %s as an id" % (what, shown(repr(value), 40)))


def text(value, what: str) -> str:
    """A string the site gave; one line naming ``what`` otherwise."""
    if not isinstance(value, str):
        raise CodabenchError("%s: the site gave %s where a string was expected" % (what, _kind(value)))
    return value


def with_query(path: str, query: Dict[str, object]) -> str:
    items = [(k, v) for k, v in query.items() if v is not None]
    if not items:
        return path
    return path + ("&" if "?" in path else "?") + urllib.parse.urlencode(items)
