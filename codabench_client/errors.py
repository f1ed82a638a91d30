"""The one kind of failure of every ``codabench.py`` command: a line for the organiser."""


class CodabenchError(Exception):
    """One line for the organiser: what failed, and what the site said."""


class URLRefused(CodabenchError):
    """A URL the site gave that the client does not open (its scheme or host)."""


class HTTPStatusError(CodabenchError):
    """The site (or its storage) answered with an HTTP error ``code``."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


class SiteDistrusted(CodabenchError):
    """The site sent the client where it may not go (another origin, another scheme, a second
    storage host): the command stops, whatever it was doing."""
