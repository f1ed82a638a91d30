"""One HTTP call to a Codabench site, and every way it can go wrong as one line.

The token (DRF ``TokenAuthentication``: ``Authorization: Token <key>``) is sent to the site's API
(``<site>/api/...``) only: never to the storage URLs the site hands out (presigned S3 URLs), nor
after a redirect elsewhere; no message carries it.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Dict, Iterator, Optional, Tuple

from ranking.names import shown

USER_AGENT = "codabench.py (organiser tools of this competition bundle)"
MAX_JSON_BYTES = 64 * 1024 ** 2  # an API answer larger than this is not read


class CodabenchError(Exception):
    """One line for the organiser: what failed, and what the site said."""


class HTTPStatusError(CodabenchError):
    """The site (or its storage) answered with an HTTP error ``code``."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects, dropping the token when the target is another origin (a dataset key's
    download redirects to the storage's URL)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and (_origin(newurl) != _origin(req.full_url) or "/api/" not in urllib.parse.urlsplit(newurl).path):
            new.remove_header("Authorization")
        return new


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


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

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60.0):
        parts = urllib.parse.urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise CodabenchError("--site %s: expected the site's address, e.g. https://www.codabench.org"
                                 % shown(url))
        self.base = "%s://%s%s" % (parts.scheme, parts.netloc, parts.path.rstrip("/"))
        self.token = token
        self.timeout = timeout
        self._opener = urllib.request.build_opener(_SameOriginRedirects)
        self._no_redirects = urllib.request.build_opener(_NoRedirects)

    def anonymous(self) -> "Site":
        return Site(self.base, None, self.timeout)

    def url(self, path: str) -> str:
        return path if "://" in path else self.base + "/" + path.lstrip("/")

    def _request(self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str]) -> urllib.request.Request:
        request = urllib.request.Request(url, data=data, method=method)
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

    def open(self, method: str, path: str, data: Optional[bytes] = None, headers: Optional[Dict[str, str]] = None,
             what: str = "", follow: bool = True):
        """The open answer (a file-like object with ``status`` and ``headers``) to one request; every
        failure a CodabenchError naming ``what`` (default: the method and path)."""
        url = self.url(path)
        what = what or "%s %s" % (method, urllib.parse.urlsplit(url).path)
        request = self._request(method, url, data, headers or {})
        opener = self._opener if follow else self._no_redirects
        try:
            return opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as error:
            if not follow and 300 <= error.code < 400:
                return error  # the redirect itself is the answer
            raise HTTPStatusError(self._scrub(self.describe_http_error(error, what, url)), error.code) from None
        except (socket.timeout, TimeoutError):
            raise CodabenchError("%s: no answer from %s within %g s" % (what, self._host(url), self.timeout)) from None
        except urllib.error.URLError as error:
            reason = error.reason
            if isinstance(reason, (socket.timeout, TimeoutError)):
                raise CodabenchError("%s: no answer from %s within %g s"
                                     % (what, self._host(url), self.timeout)) from None
            raise CodabenchError("%s: cannot reach %s (%s)" % (what, self._host(url), shown(str(reason)))) from None
        except (http.client.HTTPException, ConnectionError, OSError) as error:
            raise CodabenchError("%s: the connection to %s broke (%s)"
                                 % (what, self._host(url), shown(str(error) or type(error).__name__))) from None

    def _host(self, url: str) -> str:
        return urllib.parse.urlsplit(url).netloc

    def describe_http_error(self, error: urllib.error.HTTPError, what: str, url: str = "") -> str:
        try:
            body = error.read(200000)
        except (OSError, http.client.HTTPException):
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
        """The JSON answer to one request (``body`` sent as JSON); ``None`` for an empty answer."""
        headers = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        headers.setdefault("Accept", "application/json")
        with self.open(method, path, data, headers, what) as answer:
            try:
                raw = answer.read(MAX_JSON_BYTES + 1)
            except (http.client.HTTPException, OSError) as error:
                raise CodabenchError("%s: the answer broke off (%s)"
                                     % (what or path, shown(str(error) or type(error).__name__))) from None
        if len(raw) > MAX_JSON_BYTES:
            raise CodabenchError("%s: the answer is over %d bytes" % (what or path, MAX_JSON_BYTES))
        if not raw.strip():
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError:
            raise CodabenchError("%s: the site's answer is not JSON (%s)" % (what or path, platform_message(raw, 120)))

    def get(self, path: str, what: str = "", **query):
        return self.call("GET", with_query(path, query), what=what)

    def pages(self, path: str, what: str = "", **query) -> Iterator[dict]:
        """Every item of a list endpoint: a plain list (no pagination), or DRF's pages
        (``{"count", "next", "previous", "results"}``), following ``next``; the count each page
        gives must equal the items received."""
        url = with_query(path, query)
        received, count, seen = 0, None, set()
        while url:
            if url in seen:
                raise CodabenchError("%s: the site's pages loop (%s again)" % (what or path, shown(url)))
            seen.add(url)
            answer = self.call("GET", url, what=what)
            if isinstance(answer, list):
                for item in answer:
                    yield item
                return
            if not isinstance(answer, dict) or not isinstance(answer.get("results"), list):
                raise CodabenchError("%s: expected a list or a page of results from the site" % (what or path))
            count = answer.get("count", count)
            for item in answer["results"]:
                received += 1
                yield item
            url = answer.get("next")
            if url and _origin(self.url(url)) != _origin(self.base):
                raise CodabenchError("%s: the next page is on another site (%s)" % (what or path, shown(url)))
        if isinstance(count, int) and received != count:
            raise CodabenchError("%s: the site listed %d items but its pages held %d" % (what or path, count, received))


def with_query(path: str, query: Dict[str, object]) -> str:
    items = [(k, v) for k, v in query.items() if v is not None]
    if not items:
        return path
    return path + ("&" if "?" in path else "?") + urllib.parse.urlencode(items)
