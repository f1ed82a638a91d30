"""Headless Chromium driven over its DevTools pipe, for the page tests.

``--window-size`` cannot go below 500 px in Chromium's headless mode, so widths like 375 px
come from ``Emulation.setDeviceMetricsOverride`` (``mobile``: the page's viewport tag is honoured
as on a phone). The browser is started with ``--remote-debugging-pipe``: commands on its fd 3,
answers and events on its fd 4, JSON messages ended by a NUL byte.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--remote-debugging-pipe", "--hide-scrollbars"]


# For a plain command-line run (--screenshot, console lines on stderr), as tests/test_rank_submissions.py does.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--enable-logging=stderr", "--v=0"]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        message = "needs Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return found


class Browser:
    def __init__(self, profile: Path) -> None:
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def child_fds() -> None:  # the pipe ends become fds 3 and 4 of the browser
            commands = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
            answers = fcntl.fcntl(answers_write, fcntl.F_DUPFD, 10)
            os.dup2(commands, 3)
            os.dup2(answers, 4)

        self.process = subprocess.Popen([chromium_path()] + FLAGS + ["--user-data-dir=%s" % profile, "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=child_fds, pass_fds=(3, 4))
        os.close(commands_read)
        os.close(answers_write)
        self._buffer = b""
        self._next_id = 0
        self.events: List[Dict[str, Any]] = []

    def _receive(self, deadline: float) -> Dict[str, Any]:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._answers], [], [], max(0.0, deadline - time.time()))
            if not ready:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params: Optional[Dict[str, Any]] = None, session: Optional[str] = None,
             timeout: float = 60) -> Dict[str, Any]:
        self._next_id += 1
        message: Dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str, timeout: float = 60) -> Dict[str, Any]:
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        deadline = time.time() + timeout
        while True:
            event = self._receive(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def open_page(self, page: Path, domains=("Page",), metrics: Optional[Dict[str, Any]] = None) -> str:
        """A new tab's session with ``domains`` enabled (and ``metrics`` set) showing ``page``,
        loaded: the session id."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in domains:
            self.send(domain + ".enable", session=session)
        if metrics is not None:
            self.send("Emulation.setDeviceMetricsOverride", metrics, session=session)
        self.send("Page.navigate", {"url": page.as_uri()}, session=session)
        self.wait_for("Page.loadEventFired")
        return session

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._answers)


def render(page: Path, width: int, screenshot: Path, profile: Path) -> Dict[str, Any]:
    """Open ``page`` at ``width`` CSS pixels: the page's scrollWidth and innerWidth, its console
    errors (console.error, uncaught exceptions, log entries of level error), and a full-page
    screenshot written to ``screenshot``."""
    browser = Browser(profile)
    try:
        metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 700}
        session = browser.open_page(page, ("Page", "Runtime", "Log"), metrics)
        measured = browser.send("Runtime.evaluate", {
            "expression": "[document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight]",
            "returnByValue": True}, session=session)["result"]["value"]
        scroll_width, inner_width, height = measured
        browser.send("Emulation.setDeviceMetricsOverride", dict(metrics, height=min(int(height), 16000)),
                     session=session)
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        errors = []
        for event in browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(params)
            elif method == "Runtime.exceptionThrown":
                errors.append(params)
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append(params)
        return {"scroll_width": scroll_width, "inner_width": inner_width, "errors": errors}
    finally:
        browser.close()
