"""The table page in a real headless Chromium (Debian's package) driven by Playwright: create a
table with bots in the lobby, play a whole deal through the page to the result screen, at
desktop width and at 375 px; screenshots go to ``artifacts/``.

Skipped when Chromium or Playwright is not installed.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

CHROMIUM = os.environ.get("RUMMY21_CHROMIUM") or shutil.which("chromium") \
    or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser")
    port = free_port()
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", "from rummy21.cli import main; main()", "serve",
         "--port", str(port), "--db", f"sqlite:///{folder / 'browser.sqlite3'}",
         "--bot-delay", "0.05", "--next-deal", "600", "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        with sync_api.sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield chromium
            chromium.close()
    except sync_api.Error as error:   # e.g. the browser cannot start on this machine
        pytest.skip(f"chromium could not be started: {error}")


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_for_turn_or_result(page: Any) -> str:
    page.wait_for_function(
        "() => !document.querySelector('#btn-stock').disabled"
        " || document.querySelector('#result-title') !== null", timeout=60_000)
    return "result" if page.query_selector("#result-title") else "turn"


def drag(page: Any, source: Any, target: Any) -> None:
    target.scroll_into_view_if_needed()
    source.scroll_into_view_if_needed()
    start, end = source.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + 8, start["y"] + 14)
    page.mouse.down()
    page.mouse.move(start["x"] + 30, start["y"] + 30, steps=4)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def play_a_deal(page: Any, url: str, width: int, seats: list[str]) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url + "/")
    page.fill("#c-name", f"Tester{width}")
    page.select_option("#c-players", str(len(seats) + 1))
    for seat, kind in enumerate(seats, 1):
        page.select_option(f"select[name=seat{seat}]", kind)
    page.fill("#c-deals", "2")
    shot(page, f"lobby_{width}")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert len(page.query_selector_all("#hand .card")) == 21
    assert page.inner_text("#code").strip()

    state = "turn"
    for turn in range(3):
        state = wait_for_turn_or_result(page)
        if state == "result":
            break
        page.click("#btn-stock" if turn != 1 or page.is_disabled("#btn-open") else "#btn-open")
        page.wait_for_selector("#btn-discard:not(.hidden)")
        page.wait_for_selector("#reading b")          # the server read the 22 cards
        assert "penalty" in page.inner_text("#reading")
        if turn == 0:
            page.click("#btn-arrange")
            page.wait_for_timeout(300)
            groups = page.locator(".group:not(.loose)").count()
            drag(page, page.locator("[data-group=loose] .card").first,
                 page.locator(".newgroup"))
            assert page.locator(".group:not(.loose)").count() == groups + 1
            assert len(page.query_selector_all("#hand .card")) == 22
            new_group = page.locator(".group:not(.loose)").last
            new_group.locator(".g-reason").wait_for()    # one card: labelled, with why
            assert "at least 3 cards" in new_group.locator(".g-reason").inner_text()
            # Ask about a declaration first: the check is shown before anything happens.
            if not page.query_selector("#hand .card.selected"):
                page.locator("#hand .card").last.click(position={"x": 6, "y": 12})
            page.wait_for_selector("#hand .card.selected")
            page.click("#btn-declare")
            page.wait_for_selector(".verdict")
            assert "valid declaration" in page.inner_text(".verdict")
            shot(page, f"declare_check_{width}")
            page.click("text=Cancel")
        if turn == 2:   # discard by dragging the drawn card onto the open pile
            drag(page, page.locator("#hand .card.drawn").first, page.locator("#open-slot"))
        else:
            card = page.locator("#hand .card.drawn:not(.blocked)")
            if not card.count():        # just taken from the open pile: keep it
                card = page.locator("#hand .card:not(.drawn)")
            if "selected" not in (card.first.get_attribute("class") or ""):
                card.first.click(position={"x": 6, "y": 12})
            page.click("#btn-discard")
        page.wait_for_selector("#btn-discard.hidden, #result-title", state="attached")
        if turn == 1:
            shot(page, f"table_{width}")

    if state != "result" and wait_for_turn_or_result(page) == "turn":
        page.click("#btn-drop")
        page.wait_for_selector("#confirm-drop")
        assert "points" in page.inner_text(".modal")
        page.click("#confirm-drop")
    page.wait_for_selector("#result-title", timeout=120_000)
    page.wait_for_timeout(200)
    assert page.query_selector_all(".result-seat")
    assert "Total" in page.inner_text("table.scores")
    shot(page, f"result_{width}")
    page.click("#result-continue")     # ready for the next deal
    page.wait_for_function("() => document.querySelector('#deal-pill').textContent"
                           ".startsWith('Deal 2')", timeout=60_000)
    page.wait_for_timeout(300)
    if page.query_selector("#result-continue"):   # the bots may have finished deal 2 at once
        page.click("#result-continue")

    page.click("#history-link")
    page.wait_for_selector(".deal-item")
    page.click(".deal-item")
    page.wait_for_selector(".replay-seat")
    page.click("#next")
    page.click("#last")
    page.wait_for_selector("#replay-result table")
    shot(page, f"history_{width}")
    assert not errors, errors


def watched(page: Any, name: str) -> list[str]:
    """Keep the page's WebSocket traffic; on a failure it is printed with a screenshot."""
    frames: list[str] = []
    page.on("websocket", lambda ws: (
        ws.on("framesent", lambda data: frames.append(f"> {str(data)[:300]}")),
        ws.on("framereceived", lambda data: frames.append(f"< {str(data)[:300]}"))))
    return frames


def report(page: Any, name: str, frames: list[str]) -> None:
    try:
        shot(page, f"failure_{name}")
    finally:
        print("\n".join(frames[-25:]))


def test_play_a_deal_on_a_desktop(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    frames = watched(page, "desktop")
    try:
        play_a_deal(page, server, 1280, ["random", "random"])
    except Exception:
        report(page, "desktop", frames)
        raise
    finally:
        page.close()


def test_play_a_deal_on_a_phone(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 812}, device_scale_factor=2,
                            is_mobile=True, has_touch=True)
    frames = watched(page, "phone")
    try:
        play_a_deal(page, server, 375, ["random"])
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 375, f"the page scrolls sideways ({width}px)"
    except Exception:
        report(page, "phone", frames)
        raise
    finally:
        page.close()
