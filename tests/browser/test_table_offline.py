"""A lost connection is impossible to miss: a banner says it, the turn clock and the status
stop pretending, a page reloaded meanwhile still opens and says so, and the page says when
the table is back.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from browser.kit import PHONE, Player, Server, settled, wait_my_turn

RING = (
    "() => { const c = document.querySelector('[data-timer]');"
    " return c ? c.style.strokeDashoffset : null; }"
)


def test_the_page_says_when_the_connection_is_lost_and_back(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "greedy"], seed=4, deals=3, turn_seconds=60)
    player = players(PHONE).sit(server, made)
    page = player.page
    wait_my_turn(page)
    assert page.locator("#offline").is_hidden()
    # The service worker that keeps the page for when the server is down is in place.
    assert page.evaluate(
        "() => Promise.race([navigator.serviceWorker.ready.then((r) => !!r.active),"
        " new Promise((done) => setTimeout(() => done(false), 10000))])"
    )
    player.server_down = True
    server.kill()
    page.wait_for_selector("#offline:not(.hidden)", timeout=10_000)
    assert "reconnecting" in page.inner_text("#offline").lower()
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('Reconnecting')",
        timeout=2_000,
    )
    ring = page.evaluate(RING)
    time.sleep(1.5)
    assert page.evaluate(RING) == ring  # the turn clock stands still while nothing is heard
    player.shot("offline-phone")
    # Reloaded while the server is down: the table's page, not the browser's error page, and
    # it says what it is doing.
    url = page.url
    page.reload()
    page.wait_for_selector("#offline:not(.hidden)", timeout=10_000)
    assert "trying again by itself" in page.inner_text("#offline")
    assert page.url == url and page.locator("#hand").count() == 1
    player.shot("offline-reloaded-phone")
    server.start()
    page.wait_for_selector("#offline.hidden", state="attached", timeout=30_000)
    page.wait_for_selector(".toast:has-text('Back online')", timeout=5_000)
    page.wait_for_selector("#hand .card")  # by itself: the table again, the hand in it
    player.server_down = False
    assert not player.errors


def test_an_empty_seat_is_open_not_offline(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "human", "greedy"], seed=4, deals=3)
    player = players(PHONE).sit(server, made)
    page = player.page
    empty = page.locator("#opponents .opp[data-seat='1']")
    empty.wait_for()
    assert "open seat" in empty.inner_text()
    assert "offline" not in empty.inner_text()
    assert "offline" not in (empty.get_attribute("class") or "")
    assert not player.errors


def test_the_join_page_shows_no_empty_pills_and_no_connecting(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "human", "greedy"], seed=4, deals=3)
    player = players(PHONE)
    page = player.page
    page.goto(f"{server.url}/t/{made['code']}")
    page.wait_for_selector("#join-panel:not(.hidden)")
    page.wait_for_load_state("networkidle")  # (everything the page fetches, drawn)
    settled(page)
    empty = page.evaluate(
        "() => [...document.querySelectorAll('.topbar .pill')]"
        ".filter((p) => !p.textContent.trim() && p.getClientRects().length).length"
    )
    assert empty == 0
    assert "connecting" not in page.inner_text(".topbar")
    assert page.locator("#scores-btn").is_hidden()
    assert not player.errors
