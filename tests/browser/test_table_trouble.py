"""What a player sees when the server's database stops taking writes (a banner that says the
server keeps trying, with when it tries next; gone once a write works again), when a table was
set aside (a sentence, and no endless reconnecting), and when the seat was opened in too many
windows (the oldest says so and stays closed)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from browser.kit import DESKTOP, PHONE, Player, Server, wait_my_turn
from faults import read_only_triggers


def test_a_database_that_stops_writing_is_shown_then_forgotten(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory(bot_delay=1.5)
    made = server.create(["human", "greedy"], seed=11)
    asha = players(DESKTOP).sit(server, made)
    phone = players(PHONE, "phone").sit(server, made)  # the same seat, watching on a phone
    page = asha.page
    asha.draw_and_throw()
    with read_only_triggers(server.db):
        # The bot's move (1.5 s later) cannot be saved: the page says so, and when it retries.
        page.wait_for_selector("#trouble:not(.hidden)", timeout=20_000)
        page.wait_for_function(
            "() => /Next try in [0-9]+ s|Trying again now/"
            ".test(document.querySelector('#trouble').textContent)",
            timeout=20_000,
        )
        text = page.inner_text("#trouble")
        assert "keeps trying" in text and "nothing is lost" in text
        asha.shot("trouble_banner_1280")
        phone.page.wait_for_selector("#trouble:not(.hidden)", timeout=20_000)
        assert phone.page.locator("#trouble").bounding_box()["height"] < 60  # two lines at most
        phone.shot("trouble_banner_375")
    page.wait_for_selector("#trouble.hidden", state="attached", timeout=40_000)
    wait_my_turn(page, timeout=40_000)  # the bot's move was saved, the deal goes on
    assert phone.page.locator("#trouble.hidden").count() == 1
    assert not asha.errors and not phone.errors


def test_a_table_set_aside_says_so_and_does_not_reconnect(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "random"], seed=12)
    server.stop()
    with sqlite3.connect(server.db) as conn:
        conn.execute("UPDATE events SET data = 'not json' WHERE code = ?", (made["code"],))
    server.start()
    asha = players(DESKTOP)
    page = asha.page
    page.goto(server.url + "/")
    page.evaluate(
        "m => localStorage.setItem('rummy21:seat:' + m.code, JSON.stringify("
        "{seat: m.seat, token: m.token, name: 'Asha'}))",
        made,
    )
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{server.url}/t/{made['code']}")
    page.wait_for_selector("#ended:not(.hidden)", timeout=20_000)
    assert "set aside" in page.inner_text("#ended-text")
    assert page.locator("#ended a[href='/']").is_visible()  # and the way back to the lobby
    asha.shot("set_aside_1280")
    time.sleep(3)
    assert len(sockets) == 1  # it does not keep knocking
    asha.errors = [e for e in asha.errors if "410" not in e]  # the page's own fetch of it
    assert not asha.errors


def test_a_seat_opened_in_too_many_windows_closes_the_oldest(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "random"], seed=13)
    tabs = [players(DESKTOP, f"tab{i}").sit(server, made) for i in range(5)]
    first = tabs[0].page
    first.wait_for_function(
        "() => /open in another window/.test(document.querySelector('#status').textContent)",
        timeout=20_000,
    )
    tabs[0].shot("seat_replaced_1280")
    for tab in tabs[1:]:
        tab.page.wait_for_selector("#conn.on")
    time.sleep(2)
    assert first.locator("#conn.off").count() == 1  # and it stays closed
