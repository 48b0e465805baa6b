// The table's windows: how one opens and closes (one at a time, Escape or a click outside closes
// it, the main action takes the focus, the focus goes back where it was), and the small ones —
// drop, arrange, scores, help, share.
import { el } from "/static/cards.js";
import { deal } from "/static/state.js";
import { renderScores, scoresModel } from "/static/views/result.js";
import { plural } from "/static/views/table.js";

// Shows ``content`` in ``root``; ``onDismiss()`` when the player closes it (Escape, outside).
// Returns {box, remove()}.
export function mount(root, { content, wide = false, label = "window" }, onDismiss) {
  const before = document.activeElement;
  const box = el(
    "div",
    { class: `modal${wide ? " wide" : ""}`, role: "dialog", "aria-modal": "true", "aria-label": label },
    content,
  );
  const overlay = el("div", { class: "overlay" }, box);
  overlay.addEventListener("click", (e) => {
    if (e.target === overlay) onDismiss();
  });
  overlay.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      onDismiss();
    }
  });
  root.replaceChildren(overlay);
  // The main action first, in this order (a selector list would take the first in the page's
  // order: the result window's History link before its "I'm ready").
  const first = [".buttons .btn.primary", ".buttons .btn.go", ".buttons .btn"]
    .map((selector) => box.querySelector(selector))
    .find((found) => found);
  if (first) first.focus({ preventScroll: true });
  return {
    box,
    remove() {
      if (root.contains(overlay)) root.replaceChildren();
      if (before?.focus && document.contains(before)) before.focus({ preventScroll: true });
    },
  };
}

const button = (cls, text, onclick, id) => el("button", { class: `btn ${cls}`, type: "button", id, onclick }, text);

export function dropModel(s) {
  const d = deal(s);
  return { first: d.drop_kind === "first", cost: d.drop_cost }; // (the engine's kind and price)
}

export function renderDrop(m, on) {
  return {
    label: "drop",
    content: [
      el("h2", {}, "Drop out of this deal?"),
      el(
        "p",
        {},
        `A ${m.first ? "first" : "middle"} drop costs `,
        el("b", {}, `${m.cost} points`),
        `${m.first ? " (before your first draw)" : ""}. Your cards leave play and you wait for the next deal.`,
      ),
      el(
        "div",
        { class: "buttons" },
        button("primary", "Keep playing", on.cancel),
        button("danger", `Drop (−${m.cost})`, on.drop, "confirm-drop"),
      ),
    ],
  };
}

export function renderArrange(groups, on) {
  return {
    label: "arrange",
    content: [
      el("h2", {}, "Arrange your hand?"),
      el(
        "p",
        {},
        `You have changed your groups. Keep your ${plural(groups, "group")} as they are and lay out only the ungrouped cards, or start again from the best groups?`,
      ),
      el(
        "div",
        { class: "buttons" },
        button("ghost", "Cancel", on.cancel),
        button("", "Replace my groups", on.all, "arrange-all"),
        button("primary", "Keep mine, arrange the rest", on.rest, "arrange-rest"),
      ),
    ],
  };
}

export function renderScoresWindow(s, code, on) {
  return {
    label: "scores",
    content: [
      el("h2", {}, `Scores — ${s.game.match.history.length} of ${plural(s.game.room.deals, "deal")} played`),
      renderScores(scoresModel(s)),
      el(
        "div",
        { class: "buttons" },
        el("a", { class: "btn ghost", href: `/t/${code}/history` }, "History"),
        button("primary", "Close", on.cancel),
      ),
    ],
  };
}

export const KEYS = [
  ["S", "draw from the stock"],
  ["O", "take the open card"],
  ["X", "discard the selected card"],
  ["F", "declare with the selected card"],
  ["G", "group the selected cards"],
  ["R", "sort by suit / by rank"],
  ["A", "arrange the hand"],
  ["← →", "move between cards"],
  ["↑ ↓", "move between groups"],
  ["Space", "select a card"],
  ["Shift + arrows", "move the card"],
  ["Esc", "clear the selection"],
];

export function renderHelp(tips, on) {
  return {
    label: "help",
    content: [
      el("h2", {}, "Playing at this table"),
      el(
        "p",
        {},
        "Tap cards to select them, then Group; drag a card (or a selection) between groups, onto the open pile to discard it, or onto the finish slot to declare. Your groups are checked as you build them; what you would pay is worked out from your best arrangement, whatever your layout.",
      ),
      el(
        "table",
        { class: "keys" },
        el(
          "tbody",
          {},
          KEYS.map(([k, what]) => el("tr", {}, el("td", {}, el("kbd", {}, k)), el("td", {}, what))),
        ),
      ),
      el(
        "label",
        { class: "check" },
        el("input", { type: "checkbox", id: "tips-toggle", checked: tips, onchange: (e) => on.tips(e.target.checked) }),
        " Show tips (where to draw, what to discard)",
      ),
      el("div", { class: "buttons" }, button("primary", "Close", on.cancel)),
    ],
  };
}

export function renderShare(code, url, on) {
  return {
    label: "share",
    content: [
      el("h2", {}, "Share this table"),
      el("p", {}, "Code ", el("b", { class: "pill code" }, code)),
      el("input", { value: url, readonly: true, class: "share-url", onfocus: (e) => e.target.select() }),
      el("div", { class: "buttons" }, button("primary", "Done", on.cancel)),
    ],
  };
}
