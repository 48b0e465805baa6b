"""The coach on the history page, as a player meets it: after a deal, Review my play shows
its progress, then the accuracy, the chart of points lost, the biggest losses and every
decision; a decision jumps the replay to its move, where its verdict is shown."""

from __future__ import annotations

from collections.abc import Callable

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


def _open_review(player: Player, server: Server, code: str, from_the_list: bool) -> None:
    """The history page, and the review asked for: by the Review beside the deal in the
    list, or by opening the deal and its Review my play."""
    page = player.page
    page.goto(f"{server.url}/t/{code}/history")
    if from_the_list:
        page.click(".review-link")
    else:
        page.click(".deal-item")
        page.wait_for_selector("#viewer:not(.hidden)")
        page.click("#review-btn")
    page.wait_for_selector("#review:not(.hidden)", timeout=120_000)


def test_a_player_reviews_a_finished_deal_on_a_desktop_and_on_a_phone(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "greedy"], seed=3, deals=3)
    player = players(DESKTOP).sit(server, made)  # (the deal played with the mouse)
    _play_a_deal_by_throwing_what_i_draw(player)
    _open_review(player, server, made["code"], from_the_list=True)
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
    listed = page.locator(".all-decisions .decision").count()
    assert listed >= page.locator(".biggest .decision").count()
    assert not player.errors
    # The same seat reads it on a phone (kept by the server: at once), nothing cut off.
    reader = players(PHONE, name="reader").sit(server, made)
    _open_review(reader, server, made["code"], from_the_list=False)
    overflow = reader.page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
    assert overflow <= 1, overflow
    reader.shot("history-review-phone")
    assert not reader.errors
