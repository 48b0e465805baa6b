// The declare window: the server's check of a declaration before anything happens — the verdict,
// the reasons, and the layout as it would be laid out (when the player's own layout does not show
// a valid hand but the cards are one, the arrangement that does).
import { cardEl, el, prettyCard, prettyText } from "/static/cards.js";
import { jokers } from "/static/state.js";

// ``check``: the server's "declare_check" reply.
export function declareModel(s, check) {
  const ok = check.valid;
  const groups = check.proof
    ? check.proof.groups.map((g) => ({ cards: g.cards, label: { valid: true, pure: g.pure, label: g.label } }))
    : check.groups.map((g, i) => ({ cards: g.cards, label: check.labels[i] }));
  return {
    jokers: jokers(s),
    finish: check.finish,
    title: `Declare with ${prettyCard(check.finish)} on the finish slot?`,
    ok,
    verdict: ok
      ? `✓ A valid declaration (option ${check.option}).`
      : `✗ Not a valid declaration: declaring now costs ${check.cost_if_wrong} points and puts you out of the deal.`,
    reasons: check.proof ? [] : check.reasons.map(prettyText),
    note: check.proof
      ? "Your own layout does not show it, but the cards count: they will be laid out like this."
      : "Your layout, group by group:",
    groups,
    loose: check.proof ? check.proof.loose : check.loose,
    looseLabel: ok ? "free cards" : "ungrouped",
    // The groups sent with the declaration: the ones shown.
    send: groups.map((g) => g.cards),
    button: ok ? "Declare" : `Declare anyway (−${check.cost_if_wrong})`,
  };
}

function groupBox(cards, label, j) {
  return el(
    "div",
    { class: `group ${label.valid ? (label.pure ? "pure" : "ok") : "bad"}` },
    el("div", { class: "g-label" }, el("span", { class: "k" }, label.valid ? label.label : "not valid")),
    label.valid ? null : el("div", { class: "g-reason" }, prettyText(label.reason)),
    el(
      "div",
      { class: "g-cards" },
      cards.map((c) => cardEl(c, j)),
    ),
  );
}

function plainBox(cls, label, cards, j) {
  return el(
    "div",
    { class: `group ${cls}` },
    el("div", { class: "g-label" }, el("span", { class: "k" }, label)),
    el(
      "div",
      { class: "g-cards" },
      cards.map((c) => cardEl(c, j)),
    ),
  );
}

// ``on.cancel()``, ``on.declare(card, groups)``.
export function renderDeclare(m, on) {
  const j = m.jokers;
  return [
    el("h2", {}, m.title),
    el("div", { class: `verdict ${m.ok ? "ok" : "bad"}` }, m.verdict),
    m.reasons.length
      ? el(
          "ul",
          { class: "reasons" },
          m.reasons.map((r) => el("li", {}, r)),
        )
      : null,
    el("div", { class: "small muted" }, m.note),
    el(
      "div",
      { class: "check-groups" },
      m.groups.map((g) => groupBox(g.cards, g.label, j)),
      m.loose.length ? plainBox("loose", m.looseLabel, m.loose, j) : null,
      plainBox("finish-group", "finish", [m.finish], j),
    ),
    el(
      "div",
      { class: "buttons" },
      el("button", { class: "btn ghost", type: "button", onclick: on.cancel }, "Cancel"),
      el(
        "button",
        {
          class: `btn ${m.ok ? "go" : "danger"}`,
          type: "button",
          id: "confirm-declare",
          onclick: () => on.declare(m.finish, m.send),
        },
        m.button,
      ),
    ),
  ];
}

// The groups shown in the declare window's question: the player's groups without the finish card
// (one copy of it).
export function groupsWithout(groups, finish) {
  let removed = false;
  return groups
    .map((g) =>
      g.filter((c) => {
        if (!removed && c === finish) {
          removed = true;
          return false;
        }
        return true;
      }),
    )
    .filter((g) => g.length);
}
