"""Shared pieces of the browser tests: real server processes, Debian's Chromium driven by
Playwright with the mouse and with touch, and helpers that act as a player would.

Every server is a real process (``uvicorn`` on the app ``create_app`` builds, on a SQLite
file) so that it can be killed and started again on the same database. ``RUMMY21_SRC`` runs
the servers from another source tree (used to show a test failing on older code).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from serving import free_port

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

CHROMIUM = (
    os.environ.get("RUMMY21_CHROMIUM")
    or shutil.which("chromium")
    or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 375, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

DOWN = ("ERR_CONNECTION_REFUSED", "An unknown error occurred when fetching the script")
"""What the browser itself logs while the server is down: a refused connection, and the service
worker's script it could not fetch to look for an update."""

RUN_APP = """
import importlib, inspect, json, sys, uvicorn
from rummy21.server import create_app
port, db, options = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
known = inspect.signature(create_app).parameters   # older code (RUMMY21_SRC) lacks some
options = {k: v for k, v in options.items() if k in known}
if "table_factory" in options:   # "module:function", dealing chosen cards
    module, name = options["table_factory"].split(":")
    options["table_factory"] = getattr(importlib.import_module(module), name)
uvicorn.run(create_app(db, **options), host="127.0.0.1", port=port, log_level="warning",
            ws_max_size=64 * 1024)
"""


@dataclass
class Server:
    """A ``rummy21`` server process on a SQLite file; ``restart`` keeps port and database."""

    db: Path
    options: dict[str, Any]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        paths = [str(Path(__file__).resolve().parent)]  # for table factories (rigs.py)
        if os.environ.get("RUMMY21_SRC"):
            paths.insert(0, os.environ["RUMMY21_SRC"])
        env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                RUN_APP,
                str(self.port),
                f"sqlite:///{self.db}",
                json.dumps(self.options),
            ],
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            env=env,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def restart(self) -> None:
        self.kill()
        self.start()

    def create(self, seats: list[str], **options: Any) -> dict[str, Any]:
        """A table made through the API (as the lobby does): {code, seat, token, url}."""
        body: dict[str, Any] = {"name": "Asha", "seats": seats, "turn_seconds": 0, "deals": 3}
        body.update(options)
        reply = httpx.post(self.url + "/api/tables", json=body, timeout=10)
        assert reply.status_code == 201, reply.text
        made: dict[str, Any] = reply.json()
        return made

    def join(self, code: str, name: str) -> dict[str, Any]:
        reply = httpx.post(f"{self.url}/api/tables/{code}/join", json={"name": name}, timeout=10)
        assert reply.status_code == 200, reply.text
        joined: dict[str, Any] = reply.json()
        return joined


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers: ``server_factory(bot_delay=0.2, next_deal_seconds=600, ...)``."""
    started: list[Server] = []

    def make(**options: Any) -> Server:
        settings = {
            "bot_delay": 0.0,
            "next_deal_seconds": 600.0,
            "allow_seed": True,
            "rate_limit": None,
        }
        settings.update(options)
        server = Server(
            tmp_path / f"table{len(started)}.sqlite3",
            settings,
            tmp_path / f"server{len(started)}.log",
        ).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed")
    try:
        with sync_api.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield chromium
            chromium.close()
    except sync_api.Error as error:  # e.g. the browser cannot start on this machine
        pytest.skip(f"chromium could not be started: {error}")


class Player:
    """One browser tab at a table, with the page errors it met."""

    def __init__(self, browser: Any, device: dict[str, Any], name: str = "player") -> None:
        self.context = browser.new_context(**device)
        self.page = self.context.new_page()
        self.name = name
        self.touch = bool(device.get("has_touch"))
        self.closed = False
        self.errors: list[str] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        self.server_down = False
        """While True, the browser's own 'connection refused' errors are expected (the
        server was killed on purpose and the page keeps trying to reconnect)."""
        self.page.on("console", self._console)
        self.page.on(
            "websocket",
            lambda ws: (
                ws.on("framesent", lambda data: self.frames.append(f"> {data}")),
                ws.on("framereceived", lambda data: self.frames.append(f"< {data}")),
            ),
        )

    def _console(self, msg: Any) -> None:
        if msg.type != "error":
            return
        if self.server_down and any(text in msg.text for text in DOWN):
            return
        self.errors.append(f"console: {msg.text}")

    def sit(self, server: Server, made: dict[str, Any]) -> Player:
        """Open the table with the seat's token in this browser's storage (as after joining)."""
        self.page.goto(server.url + "/")
        self.page.evaluate(
            "m => localStorage.setItem('rummy21:seat:' + m.code, JSON.stringify("
            "{seat: m.seat, token: m.token, name: 'Asha'}))",
            made,
        )
        self.page.goto(f"{server.url}/t/{made['code']}")
        self.page.wait_for_selector("#hand .card, #hand .hand-empty")
        return self

    def answered(self, kind: str, since: int = 0, timeout: float = 10_000) -> None:
        """Wait until the page has received a message of ``kind`` (``state``, ``arranged``…)
        after its first ``since`` frames, and has drawn it."""

        def received() -> bool:
            for frame in self.frames[since:]:
                if frame.startswith("< ") and json.loads(frame[2:]).get("type") == kind:
                    return True
            return False

        wait_until(self.page, received, f"a {kind} message", timeout)
        settled(self.page)

    def state(self) -> dict[str, Any]:
        """The last state message the page received (read from the socket's traffic)."""
        for frame in reversed(self.frames):
            if frame.startswith('< {"type": "state"'):
                return dict(json.loads(frame[2:]))
        raise AssertionError("no state message seen")

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.context.close()

    def tap(self, card: Any) -> None:
        """Tap (finger) or click (mouse) a card on its visible corner: the rest of it may lie
        under the next card."""
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        if self.touch:
            self.page.touchscreen.tap(box["x"] + 6, box["y"] + 14)
        else:
            self.page.mouse.click(box["x"] + 6, box["y"] + 14)

    def draw(self, source: str = "stock") -> None:
        """Wait for the turn and draw from ``source`` (``stock`` or ``open``) by its button."""
        wait_my_turn(self.page)
        self.page.click(f"#btn-{source}")
        wait_discard_phase(self.page)

    def draw_and_throw(self) -> None:
        """A quick turn: wait for it, draw from the stock, discard the card drawn."""
        page = self.page
        self.draw()
        self.tap(page.locator("#hand .card.drawn"))
        page.click("#btn-discard")
        page.wait_for_selector("#btn-discard.hidden", state="attached")

    def drag(self, source: Any, target: Any) -> None:
        (touch_drag if self.touch else drag)(self.page, source, target)

    def report(self, name: str) -> None:
        """After a failure: a screenshot and the last messages."""
        try:
            if not self.closed:
                self.shot(f"failure_{name}")
        finally:
            print("\n".join(frame[:400] for frame in self.frames[-30:]))
            print("\n".join(self.errors))


@pytest.fixture
def players(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Player]]:
    """Open browser tabs: ``players(DESKTOP)``; closed (with a report on failure) after."""
    opened: list[Player] = []

    def make(device: dict[str, Any] = DESKTOP, name: str = "player") -> Player:
        player = Player(browser, device, name)
        opened.append(player)
        return player

    yield make
    failed = getattr(request.node, "rep_call", None)
    for player in opened:
        if failed is not None and failed.failed:
            player.report(f"{request.node.name}_{player.name}")
        player.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.rep_call = report


# ------------------------------------------------------------------ acting as a player
def box_center(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None, "the element is not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def press_and_move(page: Any, source: Any) -> tuple[float, float]:
    """Press the mouse on a card (on its visible corner) and move it enough to start a drag."""
    source.scroll_into_view_if_needed()
    box = source.bounding_box()
    x, y = box["x"] + 8, box["y"] + 16
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y + 30, steps=4)
    return x + 20, y + 30


def release_on(page: Any, target: Any) -> None:
    x, y = box_center(target)
    page.mouse.move(x, y, steps=8)
    page.mouse.up()


def drag(page: Any, source: Any, target: Any) -> None:
    """A mouse drag from a card (grabbed by its visible corner) to the middle of ``target``."""
    press_and_move(page, source)
    release_on(page, target)


class Pointer:
    """A finger (real touch events, through the DevTools protocol) or the mouse, pressed on a
    point, moved as a player moves it, and lifted."""

    def __init__(self, page: Any, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.at = (0.0, 0.0)
        self.session = page.context.new_cdp_session(page) if touch else None

    def _touch(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        assert self.session is not None
        self.session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def press(self, x: float, y: float) -> Pointer:
        self.at = (x, y)
        if self.touch:
            self._touch("touchStart", x, y)
        else:
            self.page.mouse.move(x, y)
            self.page.mouse.down()
        return self

    def move(self, x: float, y: float, steps: int = 12) -> Pointer:
        x0, y0 = self.at
        if self.touch:
            for i in range(1, steps + 1):
                self._touch("touchMove", x0 + (x - x0) * i / steps, y0 + (y - y0) * i / steps)
                self.page.wait_for_timeout(16)
        else:
            self.page.mouse.move(x, y, steps=steps)
        self.at = (x, y)
        return self

    def lift(self) -> None:
        if self.touch:
            self._touch("touchEnd", *self.at)
            assert self.session is not None
            self.session.detach()
        else:
            self.page.mouse.up()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """A finger dragging a card (by its visible corner) to the middle of ``target``."""
    source.scroll_into_view_if_needed()
    box = source.bounding_box()
    finger = Pointer(page, touch=True).press(box["x"] + 6, box["y"] + 14)
    finger.move(*box_center(target)).lift()


FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
"""Resolves once the page has drawn two more frames: what it was told before is on screen."""


def settled(page: Any) -> None:
    """Wait until the page has drawn what it has already been told (two animation frames):
    an assertion after this sees what a player would, with no guess at how long it takes."""
    page.evaluate(FRAMES)


def wait_until(page: Any, check: Callable[[], bool], what: str, timeout: float = 10_000) -> None:
    """Wait for a condition read from Python (``check``), asked again between the page's
    events; fail saying ``what`` did not happen within ``timeout`` ms."""
    deadline = time.monotonic() + timeout / 1000
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout / 1000:g} s for {what}")
        page.wait_for_timeout(20)  # (lets the page's events reach this process)


def wait_my_turn(page: Any, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "() => !document.querySelector('#btn-stock').classList"
        ".contains('hidden')"
        " && !document.querySelector('#btn-stock').disabled",
        timeout=timeout,
    )


def wait_discard_phase(page: Any) -> None:
    page.wait_for_selector("#btn-discard:not(.hidden)")


def group_ids(page: Any) -> list[list[str]]:
    """The card ids of each of the player's groups, in order."""
    return list(
        page.eval_on_selector_all(
            "#hand .group:not(.loose)",
            "gs => gs.map(g => [...g.querySelectorAll('.card')].map(n => n.dataset.id))",
        )
    )


def groups_count(page: Any) -> int:
    return int(page.locator("#hand .group:not(.loose)").count())


def hand_cards(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#hand .card", "ns => ns.map(n => n.dataset.card)"))


def seed_where(test: Callable[[int], bool], limit: int = 2000) -> int:
    """The first room seed whose first deal passes ``test``."""
    for seed in range(limit):
        if test(seed):
            return seed
    raise AssertionError("no seed found")
