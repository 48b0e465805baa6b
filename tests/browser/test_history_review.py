"""The coach on the history page, as a player meets it: after a deal, Review my play shows
its progress, then the accuracy, the chart of points lost, the biggest losses and every
decision; a decision jumps the replay to its move, where its verdict is shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser.kit import DESKTOP, PHONE, Player, Server

MY_TURN_OR_OVER = """() => !!document.querySelector('#result-continue')
  || (!document.querySelector('#btn-stock').classList.contains('hidden')
      && !document.querySelector('#btn-stock').disabled)"""


def _play_a_deal_by_throwing_what_i_draw(player: Player) -> None:
    page = player.page
    for _ in range(60):
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        if page.locator("#result-continue").count():
            return
        player.draw_and_throw()
    raise AssertionError("the deal did not end")


def _review(
    server_factory: Callable[..., Server],
    players: Callable[..., Player],
    device: dict[str, Any],
    from_the_list: bool = False,
) -> Player:
    server = server_factory()
    made = server.create(["human", "greedy"], seed=3, deals=3)
    player = players(DESKTOP).sit(server, made)  # (the deal played with the mouse)
    _play_a_deal_by_throwing_what_i_draw(player)
    if device is not DESKTOP:  # the history read on another device, by the same seat
        player = players(device, name="reader").sit(server, made)
    page = player.page
    page.goto(f"{server.url}/t/{made['code']}/history")
    if from_the_list:  # the Review beside the deal in the list
        page.click(".review-link")
    else:  # the deal opened, then its Review my play
        page.click(".deal-item")
        page.wait_for_selector("#viewer:not(.hidden)")
        page.click("#review-btn")
    page.wait_for_selector("#review:not(.hidden)", timeout=120_000)
    return player


def test_a_player_reviews_a_finished_deal_and_jumps_to_its_worst_move(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    player = _review(server_factory, players, DESKTOP, from_the_list=True)
    page = player.page
    head = page.locator(".review-head").inner_text()
    assert "accuracy" in head and "decisions" in head
    assert page.locator(".review-chart").evaluate("img => img.naturalWidth") > 0
    player.shot("history-review")
    # Throwing every card drawn is bad play: the coach finds losses, the worst first.
    worst = page.locator(".biggest .decision").first
    worst.wait_for()
    step = int(worst.get_attribute("data-step") or "0")
    worst.click()
    assert page.locator("#slider").input_value() == str(step)
    verdict = page.locator("#step-verdict")
    verdict.wait_for(state="visible")
    assert "better:" in verdict.inner_text()
    player.shot("history-review-step")
    # Every decision is listed, each a jump.
    page.click(".all-decisions summary")
    assert (
        page.locator(".all-decisions .decision").count()
        >= page.locator(".biggest .decision").count()
    )
    assert not player.errors


def test_the_review_reads_on_a_phone(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    player = _review(server_factory, players, PHONE)
    page = player.page
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
    assert overflow <= 1, overflow
    player.shot("history-review-phone")
    assert not player.errors
