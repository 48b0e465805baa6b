"""The table on a phone held sideways: the hand, the piles and the actions on one screen."""

from __future__ import annotations

from collections.abc import Callable

from browser.kit import PHONE, Player, Server, settled, wait_until
from browser.test_table_phone import FITS

LANDSCAPE = {**PHONE, "viewport": {"width": 740, "height": 375}}
"""The phone of the other tests (375 × 740) held sideways."""


def test_a_phone_held_sideways_shows_the_whole_hand_after_drawing(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "greedy", "expert"], seed=4, deals=3)
    player = players(LANDSCAPE).sit(server, made)
    page = player.page
    page.wait_for_selector("#hand .card")
    before = page.evaluate(FITS)
    player.shot("landscape-21")
    player.draw("stock")
    wait_until(page, lambda: page.locator("#hand .card").count() == 22, "the drawn card")
    settled(page)
    after = page.evaluate(FITS)
    player.shot("landscape-22")
    assert before["cards"] == 21 and after["cards"] == 22
    for seen in (before, after):
        assert seen["piles"], seen
        assert seen["hidden"] == 0, seen
    assert not player.errors
