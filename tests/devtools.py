"""One headless Chromium for a whole test process, driven over its DevTools pipe: a page is a
tab of it, not a browser of its own. Starting Chromium costs about a CPU second; the suite opens
about a hundred pages (every shipped experiment's among them), and a tab costs a fraction of it.

The protocol (https://chromedevtools.github.io/devtools-protocol/): with
`--remote-debugging-pipe` Chromium reads JSON commands from file descriptor 3 and writes its
answers and events to 4, each message ended by a NUL byte. A tab is a target with a session of
its own; its console messages and uncaught errors come as events of that session.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

ANSWER = 60.0  # seconds Chromium may take to answer one command
WAIT = 60.0  # seconds a page may take to give its value (a probe's verdict)
POLL = 0.05  # seconds between two askings of a page
HEIGHT = 900  # the window's height: the first screen the checks speak of


class BrowserError(RuntimeError):
    """Chromium stopped, or refused a command, or did not answer in time."""


@dataclass
class Tab:
    """One page being opened: its target, its session and what its console said."""

    url: str
    target: str
    session: str
    console: list[str] = field(default_factory=list)


class Browser:
    """A headless Chromium process and the pipe to it."""

    def __init__(self, executable: str, flags: tuple[str, ...]) -> None:
        self.profile = tempfile.mkdtemp(prefix="sim-chromium-")
        to_chromium, self._out = os.pipe()
        self._in, from_chromium = os.pipe()

        def pipe_ends() -> None:  # in the child: the ends where Chromium looks for them
            os.dup2(to_chromium, 3)
            os.dup2(from_chromium, 4)

        self.process = subprocess.Popen(
            [executable, *flags, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             "about:blank"],  # fmt: skip
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=pipe_ends,
        )  # fmt: skip
        os.close(to_chromium)
        os.close(from_chromium)
        self._buffer = b""
        self._ids = 0
        self._tabs: dict[str, Tab] = {}  # session -> its tab

    def open(self, urls: list[str], *, width: int, read: str,
             wait: float = WAIT) -> list[tuple[Any, list[str]]]:  # fmt: skip
        """Each url in a tab of `width` x HEIGHT pixels, all at once. For each, the first value
        other than null of the JavaScript expression `read` (asked every POLL seconds; None
        after `wait` seconds) and the tab's console lines until then."""
        tabs = [self._start(url, width) for url in urls]
        values: dict[str, Any] = {}
        given_up = time.monotonic() + wait
        while len(values) < len(tabs) and time.monotonic() < given_up:
            for tab in tabs:
                if tab.session not in values:
                    asked = self.command("Runtime.evaluate",
                                         {"expression": read, "returnByValue": True},
                                         session=tab.session)  # fmt: skip
                    if (value := asked["result"].get("value")) is not None:
                        values[tab.session] = value
            self._events(until=time.monotonic() + POLL)
        for tab in tabs:
            self.command("Target.closeTarget", {"targetId": tab.target})
            del self._tabs[tab.session]
        return [(values.get(tab.session), tab.console) for tab in tabs]

    def _start(self, url: str, width: int) -> Tab:
        target = self.command("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.command("Target.attachToTarget",
                               {"targetId": target, "flatten": True})["sessionId"]  # fmt: skip
        tab = self._tabs[session] = Tab(url, target, session)
        for method, params in (
            ("Emulation.setDeviceMetricsOverride",
             {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False}),
            ("Runtime.enable", {}),
            ("Log.enable", {}),
        ):  # fmt: skip
            self.command(method, params, session=session)
        loaded = self.command("Page.navigate", {"url": url}, session=session)
        if loaded.get("errorText"):
            raise BrowserError(f"{url}: {loaded['errorText']}")
        return tab

    # --- the pipe -------------------------------------------------------------------------

    def command(self, method: str, params: dict, *, session: str = "") -> dict:
        """Send one command and wait for its answer, taking the events that come before it."""
        self._ids += 1
        message: dict[str, Any] = {"id": self._ids, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._out, json.dumps(message).encode() + b"\0")
        except OSError as e:
            raise BrowserError(f"Chromium stopped ({e})") from None
        answered_by = time.monotonic() + ANSWER
        while True:
            answer = self._message(answered_by)
            if answer is None:
                raise BrowserError(f"Chromium did not answer {method} within {ANSWER:.0f} s")
            if answer.get("id") == self._ids:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})
            self._take(answer)

    def _events(self, *, until: float) -> None:
        while (event := self._message(until)) is not None:
            self._take(event)

    def _take(self, event: dict) -> None:
        """A console line for the tab whose session the event is of."""
        tab = self._tabs.get(event.get("sessionId", ""))
        if tab is not None and (line := _console_line(event.get("method", ""),
                                                       event.get("params", {}))):  # fmt: skip
            tab.console.append(line)

    def _message(self, until: float) -> dict | None:
        """The next message, or None if none has come by `until`."""
        while b"\0" not in self._buffer:
            left = until - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                return None
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise BrowserError(f"Chromium stopped (exit code {self.process.poll()})")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def close(self) -> None:
        for fd in (self._out, self._in):
            with contextlib.suppress(OSError):  # closed already
                os.close(fd)  # Chromium ends when its pipe closes
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


def _console_line(method: str, params: dict) -> str:
    """A console message or an uncaught error, as Chromium's own log would write it; '' for any
    other event. Every console call counts, whatever its level, and every message the browser
    reports itself (a resource that failed to load) but the verbose ones."""
    if method == "Runtime.consoleAPICalled":
        words = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
        return f"CONSOLE {params['type']}: {words}"
    if method == "Runtime.exceptionThrown":
        details = params["exceptionDetails"]
        thrown = (details.get("exception") or {}).get("description") or details.get("text", "")
        return f"Uncaught {thrown}"
    if method == "Log.entryAdded" and params["entry"].get("level") != "verbose":
        entry = params["entry"]
        where = entry.get("url", "")
        return f"CONSOLE {entry['level']} ({entry['source']}): {entry['text']} {where}".strip()
    return ""


_SHARED: dict[str, Browser] = {}


def shared(executable: str, flags: tuple[str, ...]) -> Browser:
    """This process's browser: started on first use, and again after it stopped or was closed
    (`close_shared`: the suite closes it after each test module, as it idles at about 1% of a
    core between pages)."""
    browser = _SHARED.get("browser")
    if browser is None or not browser.alive:
        close_shared()
        browser = _SHARED["browser"] = Browser(executable, flags)
    return browser


@atexit.register
def close_shared() -> None:
    if (browser := _SHARED.pop("browser", None)) is not None:
        browser.close()
