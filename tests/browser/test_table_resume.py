"""Nothing stalls and nothing leaks, checked in the browser: a table resumed after kill -9 has
a running clock; an absent player no longer holds up a table without a timer; the history
shows a player nothing the live table did not, and outsiders nothing of a private table.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from browser.kit import DESKTOP, Player, Server, hand_cards, wait_my_turn


def test_a_turn_resumed_after_a_crash_has_a_running_clock(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """3. Killed in the middle of the player's turn, the server comes back and the turn runs
    out on its own: the table never waits for ever on a player who has left."""
    server = server_factory(bot_delay=0.3)
    made = server.create(["human", "greedy"], seed=7, turn_seconds=8)
    asha = players(DESKTOP).sit(server, made)
    page = asha.page
    asha.draw()
    held = sorted(hand_cards(page))
    asha.server_down = True
    server.kill()
    page.wait_for_selector("#conn.off")
    server.start()
    page.wait_for_selector("#conn.on", timeout=30_000)
    asha.server_down = False
    page.wait_for_function(
        "() => /^[0-9]+$/.test(document.querySelector('.avatar.me .initials').textContent)",
        timeout=30_000,
    )
    assert page.locator(".me.turn .ring circle[data-timer]").count() == 1
    state = asha.state()
    assert state["deadline"] is not None and state["deadline_kind"] == "turn"
    assert sorted(hand_cards(page)) == held  # nothing lost
    # The player does nothing: the clock runs out and the deal goes on.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some(li => li.textContent.includes("
        "'out of time'))",
        timeout=60_000,
    )
    assert not asha.errors


def test_an_absent_player_no_longer_stalls_a_table_without_a_timer(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """7. No turn timer; a friend closes the tab in the middle of the game. After the grace
    period the absent seat times out, and the host can hand it to a bot."""
    server = server_factory(bot_delay=0.2, absent_grace=4.0)
    made = server.create(["human", "human"], seed=9, turn_seconds=0)
    joined = server.join(made["code"], "Bob")
    asha = players(DESKTOP, "asha").sit(server, made)
    bob = players(DESKTOP, "bob").sit(server, {**joined, "code": made["code"]})
    page = asha.page
    asha.draw_and_throw()
    bob.close()  # Bob leaves during his turn
    page.wait_for_function(
        "() => /offline — their turn times out in [0-9]+ s/"
        ".test(document.querySelector('#status').textContent)",
        timeout=30_000,
    )
    wait_my_turn(page, timeout=45_000)  # Bob's turn ran out
    assert "out of time" in page.eval_on_selector_all(
        "#log li", "ns => ns.map(n => n.textContent).join(' ')"
    )
    # The host lets a bot play for Bob from now on.
    asha.draw_and_throw()
    page.wait_for_selector("#btn-autoplay")
    page.click("#btn-autoplay")
    page.wait_for_selector(".opp .badge.bot")
    assert "bot playing" in page.inner_text(".opp")
    wait_my_turn(page, timeout=45_000)
    assert not asha.errors


def test_history_shows_nothing_the_live_table_did_not(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    """6. Bob drops: his hand is folded on the result screen, so no replay may show it —
    not to Asha, and an outsider holding the code sees nothing of a private table."""
    server = server_factory(bot_delay=0.1)
    made = server.create(["human", "human", "greedy"], seed=12, turn_seconds=0, deals=1)
    joined = server.join(made["code"], "Bob")
    asha = players(DESKTOP, "asha").sit(server, made)
    bob = players(DESKTOP, "bob").sit(server, {**joined, "code": made["code"]})
    page = asha.page
    asha.draw_and_throw()
    wait_my_turn(bob.page)
    folded = set(hand_cards(bob.page))
    bob.page.click("#btn-drop")
    bob.page.click("#confirm-drop")
    wait_my_turn(page)
    page.click("#btn-drop")
    page.click("#confirm-drop")
    page.wait_for_selector("#result-title")
    assert "hand folded" in page.inner_text(".result-seat[data-seat='1']")
    # An outsider with the link: a private table's history is closed.
    outsider = players(DESKTOP, "outsider")
    outsider.page.goto(f"{server.url}/t/{made['code']}/history")
    outsider.page.wait_for_selector("#error:not(.hidden)")
    assert "players only" in outsider.page.inner_text("#error")
    # Asha's replay: Bob's row is face down at every step.
    answers: list[str] = []
    page.on("response", lambda r: answers.append(r.text()) if "/deals/0" in r.url else None)
    page.goto(f"{server.url}/t/{made['code']}/history")
    page.click(".deal-item")
    page.wait_for_selector(".replay-seat")
    steps = int(page.get_attribute("#slider", "max") or "0")
    for _ in range(steps):
        faces = page.locator(".replay-seat").nth(1).locator(".card:not(.back)").count()
        assert faces == 0, "Bob's cards are shown in the replay"
        page.click("#next")
    page.wait_for_selector("#replay-result table")
    replay = json.loads(answers[-1])
    for frame in replay["frames"]:
        assert frame["hands"][1] is None
    bob_row = next(s for s in replay["result"]["seats"] if s["seat"] == 1)
    assert bob_row["cards"] == [] and bob_row.get("hidden")
    assert folded  # (he held cards to hide)
    assert not asha.errors
    # The browser itself logs the refused request; the page adds nothing else.
    assert all("403" in error for error in outsider.errors), outsider.errors
