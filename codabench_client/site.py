"""The site's API as the commands call it: one request (``Site.open``), its JSON answer
(``Site.call``), every page of a list (``Site.pages``), and every way a call can go wrong as one
line (``codabench_client.errors``).

The token (DRF ``TokenAuthentication``: ``Authorization: Token <key>``) is sent to the site's API
(``<site>/api/...``) only: never to the storage URLs the site hands out (presigned S3 URLs), nor
after a redirect elsewhere; no message carries it.

Where the client goes: the site, and for files its one storage (every presigned URL a Codabench
hands out is signed by one storage client: the first origin other than the site's that it names, a
dataset's download redirect or an upload URL, is its storage, on the site's scheme). An API call
redirected to another origin, a scheme change, or a file on a third host stops the command
(``SiteDistrusted``).
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from ranking.names import shown

from .errors import CodabenchError, HTTPStatusError, SiteDistrusted, URLRefused
from .shapes import depth_within, record
from .transport import (MIN_FILE_RATE, Answer, Deadline, NoRedirects, SameOriginRedirects, guarded_opener,
                        is_loopback, origin)

USER_AGENT = "codabench.py (organiser tools of this competition bundle)"
MAX_JSON_BYTES = 64 * 1024 ** 2  # an API answer larger than this is not read
MAX_JSON_DEPTH = 64  # Codabench's answers nest a few levels; deeper is not read
MAX_PAGES = 10000  # of one list (a million submissions at Codabench's page sizes)


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
                 warn: Optional[Callable[[str], None]] = None, storage: Optional[List[Tuple[str, str]]] = None):
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
        self.storage = storage if storage is not None else []  # the storage's origin, once the site names it
        self._opener = guarded_opener(SameOriginRedirects(self.checked_url))
        self._no_redirects = guarded_opener(NoRedirects())

    def anonymous(self) -> "Site":
        """The site as a visitor sees it (no token), with the same storage."""
        return Site(self.base, None, self.timeout, self.allow_http, warn=lambda line: None, storage=self.storage)

    def url(self, path: str) -> str:
        return path if "://" in path else self.base + "/" + path.lstrip("/")

    def checked_url(self, url: str, what: str = "", source: str = "") -> str:
        """``url`` when the client may open it: https, or http to this machine (or anywhere with
        --allow-http); a URL the site hands out (a file's, a page's, a redirect's from ``source``)
        is never trusted for its scheme (``file:``, ``ftp:``, ``data:`` are refused, one line), nor
        for its origin (``trusted_origin``)."""
        parts = urllib.parse.urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            host = parts.hostname
        except ValueError:
            host = None
        if not (scheme == "https" and host) and not (scheme == "http" and host and (is_loopback(host) or self.allow_http)):
            raise URLRefused("%s: the site gave the URL %s; only https (or http to this machine) is opened"
                             % (what or "a URL", shown(self._scrub(url), 120)))
        self.trusted_origin(url, what or "a URL", source)
        return url

    def trusted_origin(self, url: str, what: str, source: str = "") -> None:
        """Nothing when ``url`` is on the site, or a file on its storage (the first other origin the
        site names, on the site's scheme); SiteDistrusted otherwise: a scheme change, an API call
        redirected off the site, a second storage host."""
        target, site = origin(url), origin(self.base)
        if target == site:
            return
        seen = "%s://%s" % target
        if target[0] != site[0]:
            raise SiteDistrusted("%s: the site sent the client from %s to %s (a scheme change): stopped, nothing was "
                                 "read from there" % (what, site[0], shown(self._scrub(seen), 120)))
        if source and self.is_api(source):
            raise SiteDistrusted("%s: the site's API redirected to another origin, %s: stopped, nothing was read from "
                                 "there" % (what, shown(self._scrub(seen), 120)))
        if not self.storage:
            self.storage.append(target)
        elif self.storage[0] != target:
            raise SiteDistrusted("%s: a file on %s, neither the site (%s) nor its storage (%s://%s): stopped, nothing "
                                 "was read from there" % (what, shown(self._scrub(seen), 120), self._host(self.base),
                                                          self.storage[0][0], self.storage[0][1]))

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
        return origin(url) == origin(self.base) and \
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
        deadline = Deadline(self.timeout + (len(data) / MIN_FILE_RATE if data and per_byte else 0))
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
        if not depth_within(value, MAX_JSON_DEPTH):
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
            if url and origin(self.url(url)) != origin(self.base):
                raise CodabenchError("%s: the next page is on another site (%s)" % (what or path, shown(url)))
        if isinstance(count, int) and received != count:
            raise CodabenchError("%s: the site listed %d items but its pages held %d" % (what or path, count, received))


def _warn(line: str) -> None:
    print("codabench: %s" % line, file=sys.stderr)


def with_query(path: str, query: Dict[str, object]) -> str:
    items = [(k, v) for k, v in query.items() if v is not None]
    if not items:
        return path
    return path + ("&" if "?" in path else "?") + urllib.parse.urlencode(items)
