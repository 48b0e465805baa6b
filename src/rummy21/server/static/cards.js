// Shared helpers for the pages: card codes and how they are said, and drawing cards (the network
// is in net.js, what the browser remembers in seats.js).

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const STAR =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 2l2.9 6.5 7.1.7-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.7z"/></svg>';

export function parseCard(text) {
  if (text === "JK") return { text, rank: 0, rankName: "JK", suit: null, red: false };
  const suit = text.slice(-1);
  const rankName = text.slice(0, -1);
  return { text, rank: RANKS.indexOf(rankName) + 1, rankName, suit, red: suit === "H" || suit === "D" };
}

export function prettyCard(text) {
  if (!text) return "";
  if (text === "JK") return "JK";
  const c = parseCard(text);
  return c.rankName + SUITS[c.suit];
}

// Card codes inside a sentence from the server ("5S 6S are not identical") with suit symbols.
export function prettyText(text) {
  return String(text).replace(/\b(10|[2-9AJQK])([SHDC])\b/g, (_, rank, suit) => rank + SUITS[suit]);
}

// Which cards are jokers and value cards is the server's to say (``jokers.joker_cards`` and
// ``jokers.value_cards``, worked out by the engine from the cut card): the page only looks.
export function isJoker(text, jokers) {
  return !!jokers && (jokers.joker_cards || []).includes(text);
}

export function isValueCard(text, jokers) {
  return !!jokers && (jokers.value_cards || []).includes(text);
}

const RANK_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

// A card as a screen reader says it: "Queen of spades, joker, value card".
export function cardName(text, jokers) {
  const c = parseCard(text);
  let name = c.suit === null ? "Printed joker" : `${RANK_WORDS[c.rankName] || c.rankName} of ${SUIT_WORDS[c.suit]}`;
  if (c.suit !== null && isJoker(text, jokers)) name += ", joker";
  if (isValueCard(text, jokers)) name += ", value card";
  return name;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A card face drawn with CSS: corner index, a pip or a face frame, and marks for jokers and
// value cards (the star and the $).
export function cardEl(text, jokers, opts = {}) {
  const c = parseCard(text);
  const classes = ["card"];
  if (opts.size) classes.push(opts.size);
  const joker = isJoker(text, jokers);
  const value = isValueCard(text, jokers);
  let title = prettyCard(text);
  if (c.suit === null) {
    classes.push("printed");
  } else if (c.red) classes.push("red");
  if (joker) {
    classes.push("is-joker");
    title += " — joker";
  }
  if (value) title += " — value card";
  const node = el("div", { class: classes.join(" "), title, dataset: { card: text } });
  // The marks sit under the corner index: the part of a card that stays visible in a fan.
  const marks = [
    joker ? el("em", { class: "c-mark joker", title: "joker" }, "★") : null,
    value ? el("em", { class: "c-mark value", title: "value card" }, "$") : null,
  ];
  if (c.suit === null) {
    node.append(el("span", { class: "c-corner" }, el("b", {}, "JK"), ...marks));
    node.insertAdjacentHTML("beforeend", STAR);
  } else {
    node.append(el("span", { class: "c-corner" }, el("b", {}, c.rankName), el("i", {}, SUITS[c.suit]), ...marks));
    if (c.rank >= 11) node.append(el("span", { class: "c-face" }, c.rankName, el("i", {}, SUITS[c.suit])));
    else node.append(el("span", { class: "c-pip" }, SUITS[c.suit]));
  }
  return node;
}

export function backEl(size) {
  return el("div", { class: `card back${size ? ` ${size}` : ""}`, title: "closed stock" });
}

export function cardsRow(cards, jokers, opts = {}) {
  return el(
    "div",
    { class: `cards-row${opts.overlap ? " overlap" : ""}` },
    cards.map((c) => cardEl(c, jokers, opts)),
  );
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function scoreClass(n) {
  return n > 0 ? "pos" : n < 0 ? "neg" : "";
}

export function codeFromPath() {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9]{4,12})/);
  return m ? m[1].toUpperCase() : null;
}
