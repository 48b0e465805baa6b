"""The advised discard is unmistakable at every size: lifted out of its row, ringed, and its
tag on the part of the card no neighbour covers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser.kit import DESKTOP, PHONE, Player, Server

LANDSCAPE = {**PHONE, "viewport": {"width": 740, "height": 375}}

MEASURE = """() => {
  const card = document.querySelector('#hand .card.advised');
  if (!card) return null;
  const box = card.getBoundingClientRect();
  const row = [...card.parentElement.querySelectorAll('.card')].filter((c) => c !== card);
  const tops = row.map((c) => c.getBoundingClientRect().top).sort((a, b) => a - b);
  const tag = getComputedStyle(card, '::before');
  const x = box.left + 8, y = box.bottom - 9;
  card.scrollIntoView({ block: 'nearest' });
  const hit = document.elementFromPoint(x, y);
  return {
    lift: tops.length ? tops[Math.floor(tops.length / 2)] - box.top : null,
    ring: getComputedStyle(card).boxShadow,
    tag: tag.content, tagSize: parseFloat(tag.fontSize),
    uncovered: !!hit && (hit === card || card.contains(hit)),
  };
}"""


@pytest.mark.parametrize(
    ("device", "label"), [(DESKTOP, "desktop"), (PHONE, "phone"), (LANDSCAPE, "landscape")]
)
def test_the_advised_discard_stands_out(
    server_factory: Callable[..., Server],
    players: Callable[..., Player],
    device: dict[str, Any],
    label: str,
) -> None:
    server = server_factory()
    made = server.create(["human", "greedy", "greedy"], seed=3, deals=3)
    player = players(device).sit(server, made)
    page = player.page
    player.draw()
    page.wait_for_selector("#hand .card.advised")
    seen = page.evaluate(MEASURE)
    assert seen is not None
    assert seen["tag"] == '"tip"' and seen["tagSize"] >= 11
    assert "245, 158, 11" in seen["ring"]  # the amber ring
    if seen["lift"] is not None:
        assert seen["lift"] >= 6, seen  # raised above the cards of its row
    assert seen["uncovered"], seen  # the tag's corner is the card's own, not a neighbour's
    player.shot(f"advised-{label}")
    assert not player.errors


def test_a_focused_card_leaves_its_neighbours_corner_visible(
    server_factory: Callable[..., Server], players: Callable[..., Player]
) -> None:
    server = server_factory()
    made = server.create(["human", "greedy"], seed=3, deals=3)
    player = players(DESKTOP).sit(server, made)
    page = player.page
    page.wait_for_selector("#hand .card")
    page.focus("#hand .card >> nth=0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")  # keyboard focus: :focus-visible applies
    covered = page.evaluate(
        """() => {
          const card = document.activeElement;
          const next = card.nextElementSibling;
          if (!next || !next.classList.contains('card')) return null;
          const box = next.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + 6, box.top + 10);
          return !(hit === next || next.contains(hit));
        }"""
    )
    assert covered is False
    assert not player.errors
