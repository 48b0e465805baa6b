// The pure helpers of cards.js (no DOM): card codes, their pretty and spoken forms, scores.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  cardName,
  isJoker,
  isValueCard,
  parseCard,
  prettyCard,
  prettyText,
  SUITS,
  scoreClass,
  signed,
} from "/static/cards.js";

// Cut 7D: the wild rank is 7, and the cards either side of the cut (8D, 6D) are value cards.
const JOKERS = { joker_cards: ["7S", "7H", "7D", "7C", "JK"], value_cards: ["7D", "8D", "6D"] };

describe("parseCard", () => {
  test("rank, rank name, suit and colour", () => {
    assert.deepEqual(parseCard("AS"), { text: "AS", rank: 1, rankName: "A", suit: "S", red: false });
    assert.deepEqual(parseCard("10H"), { text: "10H", rank: 10, rankName: "10", suit: "H", red: true });
    assert.deepEqual(parseCard("QD"), { text: "QD", rank: 12, rankName: "Q", suit: "D", red: true });
    assert.deepEqual(parseCard("KC"), { text: "KC", rank: 13, rankName: "K", suit: "C", red: false });
  });

  test("the printed joker has no rank and no suit", () => {
    assert.deepEqual(parseCard("JK"), { text: "JK", rank: 0, rankName: "JK", suit: null, red: false });
  });

  test("every rank of a suit in order", () => {
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    assert.deepEqual(
      ranks.map((r) => parseCard(`${r}C`).rank),
      ranks.map((_, i) => i + 1),
    );
  });
});

describe("prettyCard and prettyText", () => {
  test("a card with its suit symbol", () => {
    assert.equal(prettyCard("QS"), "Q♠");
    assert.equal(prettyCard("10H"), "10♥");
    assert.equal(prettyCard("AD"), `A${SUITS.D}`);
    assert.equal(prettyCard("2C"), "2♣");
    assert.equal(prettyCard("JK"), "JK");
  });

  test("no card, no text", () => {
    assert.equal(prettyCard(""), "");
    assert.equal(prettyCard(null), "");
    assert.equal(prettyCard(undefined), "");
  });

  test("card codes inside a sentence from the server", () => {
    assert.equal(prettyText("5S 6S are not identical"), "5♠ 6♠ are not identical");
    assert.equal(prettyText("10D, JD and QD: a pure sequence"), "10♦, J♦ and Q♦: a pure sequence");
    assert.equal(prettyText("KC KH KS"), "K♣ K♥ K♠");
  });

  test("words that only look like card codes stay as they are", () => {
    assert.equal(prettyText("JK is a printed joker"), "JK is a printed joker");
    assert.equal(prettyText("ASH 15S 1S AS2"), "ASH 15S 1S AS2");
    assert.equal(prettyText("options A–D"), "options A–D");
  });

  test("anything is made a string first", () => {
    assert.equal(prettyText(42), "42");
    assert.equal(prettyText(null), "null");
  });
});

describe("isJoker and isValueCard", () => {
  test("read from the server's lists", () => {
    assert.equal(isJoker("7H", JOKERS), true);
    assert.equal(isJoker("JK", JOKERS), true);
    assert.equal(isJoker("8D", JOKERS), false);
    assert.equal(isValueCard("8D", JOKERS), true);
    assert.equal(isValueCard("7D", JOKERS), true);
    assert.equal(isValueCard("7H", JOKERS), false);
  });

  test("no jokers object, or a list missing: nothing is a joker or a value card", () => {
    for (const jokers of [null, undefined, {}, { joker_cards: null, value_cards: null }]) {
      assert.equal(isJoker("7H", jokers), false);
      assert.equal(isValueCard("8D", jokers), false);
    }
    assert.equal(isJoker("7H", { value_cards: ["7H"] }), false);
    assert.equal(isValueCard("8D", { joker_cards: ["8D"] }), false);
  });

  test("always a boolean", () => {
    assert.equal(isJoker("7H", null), false);
    assert.equal(isValueCard("8D", undefined), false);
  });
});

describe("cardName: a card as a screen reader says it", () => {
  test("ranks and suits in words", () => {
    assert.equal(cardName("QS", null), "Queen of spades");
    assert.equal(cardName("AH", null), "Ace of hearts");
    assert.equal(cardName("JD", null), "Jack of diamonds");
    assert.equal(cardName("KC", null), "King of clubs");
    assert.equal(cardName("10H", null), "10 of hearts");
    assert.equal(cardName("2S", null), "2 of spades");
  });

  test("joker and value card marks", () => {
    assert.equal(cardName("7H", JOKERS), "7 of hearts, joker");
    assert.equal(cardName("8D", JOKERS), "8 of diamonds, value card");
    assert.equal(cardName("7D", JOKERS), "7 of diamonds, joker, value card");
    assert.equal(cardName("9D", JOKERS), "9 of diamonds");
  });

  test("the printed joker is named as such, never 'joker' twice", () => {
    assert.equal(cardName("JK", JOKERS), "Printed joker");
    assert.equal(cardName("JK", null), "Printed joker");
    assert.equal(cardName("JK", { joker_cards: ["JK"], value_cards: ["JK"] }), "Printed joker, value card");
  });
});

describe("signed and scoreClass", () => {
  test("a score with its sign", () => {
    assert.equal(signed(12), "+12");
    assert.equal(signed(0), "0");
    assert.equal(signed(-80), "-80");
  });

  test("the class that colours a score", () => {
    assert.equal(scoreClass(3), "pos");
    assert.equal(scoreClass(-3), "neg");
    assert.equal(scoreClass(0), "");
  });
});
