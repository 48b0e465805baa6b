"""The result window as a player meets it: the main action has the focus (Enter means "I'm
ready", not "open the history"), the winner's row comes first, and a score is said once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser.kit import DESKTOP, PHONE, Player, Server, wait_my_turn


def _drop_and_wait_for_the_result(player: Player) -> None:
    page = player.page
    wait_my_turn(page)
    page.click("#btn-drop")
    page.click("#confirm-drop")
    page.wait_for_selector("#result-continue:not([disabled])", timeout=60_000)


def _dropped_at_three(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> tuple[Server, dict[str, Any], Player]:
    """A desktop player at a table with two greedy bots, who drops at once: the result shown."""
    server = server_factory()
    made = server.create(["human", "greedy", "greedy"], seed=11, deals=3)
    player = players(DESKTOP).sit(server, made)
    _drop_and_wait_for_the_result(player)
    return server, made, player


def test_enter_in_the_result_window_means_ready(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    _, _, player = _dropped_at_three(server_factory, players)
    page = player.page
    assert page.evaluate("document.activeElement.id") == "result-continue"
    url = page.url
    page.keyboard.press("Enter")
    # Enter sent "ready" (with only bots waiting, the next deal then starts at once).
    page.wait_for_function(
        "() => !document.querySelector('#result-continue')"
        " || document.querySelector('#result-continue').disabled"
    )
    assert any('"type":"ready"' in f.replace(" ", "") for f in player.frames if f[0] == ">")
    assert page.url == url  # still at the table, not on the history page
    player.shot("result-ready-desktop")
    assert not player.errors


def test_the_winner_comes_first_and_a_score_is_said_once(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "greedy", "greedy", "greedy"], seed=5, deals=3)
    player = players(PHONE).sit(server, made)
    _drop_and_wait_for_the_result(player)
    page = player.page
    result = player.state()["result"]
    rows = page.locator(".result-seat")
    if result["winner"] is not None:
        assert rows.first.get_attribute("data-seat") == str(result["winner"])
        assert "winner" in (rows.first.get_attribute("class") or "")
    for index in range(rows.count()):
        score = rows.nth(index).locator(".r-score").inner_text()
        assert "·" not in score, score  # a point is worth 1: the money would only repeat it
    player.shot("result-winner-first-phone")
    assert not player.errors


def test_a_restart_between_deals_waits_for_no_bot_and_the_replay_shows_the_drop(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server, made, player = _dropped_at_three(server_factory, players)
    page = player.page
    # The server restarts between deals: the bots are ready at once, as before; only the
    # player is waited for.
    player.server_down = True
    server.restart()
    page.wait_for_selector("#conn.on", timeout=30_000)
    player.server_down = False
    page.wait_for_function(
        "() => /as soon as you are ready/.test(document.querySelector('#next-deal')?.textContent)"
    )
    bots = [s["name"] for s in player.state()["room"]["seats"] if s["kind"] == "bot"]
    text = page.inner_text("#next-deal")
    assert bots and not any(bot in text for bot in bots), text
    page.goto(f"{server.url}/t/{made['code']}/history")
    page.click(".deal-item >> nth=0")
    page.wait_for_selector(".replay-seat")
    page.click("#first")
    labels = []
    for _ in range(4):  # the drop is among the first steps: the frames after it
        page.click("#next")
        labels.append(page.inner_text(".replay-seat.mine"))
    assert any("folded (you dropped)" in text for text in labels), labels
    assert not player.errors
