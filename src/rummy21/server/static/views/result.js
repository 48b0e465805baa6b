// A deal's result (every hand laid out, a dropped hand folded, the winner first), its countdown
// to the next deal, and the match's scores. Models are plain data from the state; the render
// functions draw them.
import { cardEl, el, prettyCard, scoreClass, signed } from "/static/cards.js";
import { lost, nameOf, serverNow } from "/static/state.js";
import { plural } from "/static/views/table.js";

export function resultHeadline(s, r) {
  const who = nameOf(s, r.winner);
  if (r.reason === "wash") return "A wash: nobody wins this deal.";
  if (r.reason === "declared") return `${who} declared — option ${r.option}.`;
  return `${who} won: everyone else dropped or declared wrongly.`;
}

export function resultModel(s) {
  const r = s.game.result;
  // The winner first (on a phone the result's seats run below the fold), then seat order.
  const ordered = [...r.seats].sort((a, b) => (b.seat === r.winner) - (a.seat === r.winner) || a.seat - b.seat);
  return {
    deal: r.deal,
    finished: s.game.room.status === "finished",
    title: `Deal ${r.deal + 1}: ${resultHeadline(s, r)}`,
    note: `Cut card ${prettyCard(r.jokers.cut)} · scores sum to zero · money at ${s.game.room.point_value} a point`,
    jokers: r.jokers,
    seats: ordered.map((seat) => {
      const detail = [];
      if (seat.seat === r.winner) detail.push("winner");
      if (seat.rule) detail.push(`pays ${seat.penalty} (${seat.rule_label})`);
      if (seat.value || seat.value_net)
        detail.push(
          `value cards ${seat.value}${seat.marriages ? ` incl. ${plural(seat.marriages, "marriage")}` : ""} → net ${signed(seat.value_net)}`,
        );
      if (seat.cap_adjustment) detail.push(`loss cap ${signed(seat.cap_adjustment)}`);
      if (seat.hidden) detail.push("hand folded");
      const groups = seat.groups.map((g) => ({ cls: g.pure ? "pure" : "ok", label: g.label, cards: g.cards }));
      if (seat.loose.length)
        groups.push({
          cls: "loose",
          label:
            seat.standing === "dropped" ? "hand at the drop" : seat.rule === "full_count" ? "all cards count" : "loose",
          cards: seat.loose,
        });
      if (seat.seat === r.winner && r.finish) groups.push({ cls: "", label: "finish", cards: [r.finish] });
      return {
        seat: seat.seat,
        winner: seat.seat === r.winner,
        name: seat.seat === s.game.you ? `${seat.name} (you)` : seat.name,
        score: seat.score,
        // Money only when it says something the points do not (a point worth other than 1).
        money: Number(seat.money) !== seat.score ? seat.money : null,
        detail: detail.join(" · "),
        groups,
      };
    }),
  };
}

// The line under the title: how long until the next deal, and who it waits for.
export function countdownText(s, deal) {
  if (s.game.room.status === "finished") return "The match is over.";
  if (lost(s)) return "Reconnecting: the next deal waits for the table.";
  const at = s.game.next_deal_at;
  const left = at ? Math.max(0, Math.ceil((at - serverNow(s)) / 1000)) : null;
  const waiting = s.game.room.seats
    .filter((seat) => !s.game.ready.includes(seat.seat))
    .map((seat) => (seat.seat === s.game.you ? "you" : seat.name));
  const one = waiting.length === 1 && waiting[0] !== "you";
  return (
    (left !== null ? `Deal ${deal + 2} starts in ${left} s` : `Deal ${deal + 2} starts soon`) +
    (waiting.length ? ` — or as soon as ${waiting.join(", ")} ${one ? "is" : "are"} ready.` : ".")
  );
}

// The window's live parts: the countdown, and "I'm ready" once said.
export function resultLiveModel(s) {
  if (s.window?.kind !== "result" || !s.game?.result) return null;
  const deal = s.window.deal;
  const finished = s.game.room.status === "finished";
  const ready = !finished && (s.readyFor === deal || s.game.ready.includes(s.game.you));
  return {
    countdown: countdownText(s, deal),
    ready,
    button: finished ? "Close" : ready ? "Waiting for the others…" : "I'm ready",
  };
}

function groupBox(g, j) {
  return el(
    "div",
    { class: `group ${g.cls}`.trim() },
    el("div", { class: "g-label" }, el("span", { class: "k" }, g.label)),
    el(
      "div",
      { class: "g-cards" },
      g.cards.map((c) => cardEl(c, j)),
    ),
  );
}

// The result window's content (``on.ready``: the player is ready, or closes a finished match's).
export function renderResult(m, scores, code, on) {
  const seats = m.seats.map((seat) =>
    el(
      "div",
      { class: `result-seat${seat.winner ? " winner" : ""}`, dataset: { seat: seat.seat } },
      el(
        "div",
        { class: "r-head" },
        el("span", { class: "r-name" }, seat.name),
        el(
          "span",
          { class: `r-score ${scoreClass(seat.score)}` },
          `${signed(seat.score)} pts`,
          seat.money !== null ? el("small", { class: "muted" }, ` · ${seat.money}`) : null,
        ),
      ),
      el("div", { class: "r-detail" }, seat.detail),
      el(
        "div",
        { class: "r-groups" },
        seat.groups.map((g) => groupBox(g, m.jokers)),
      ),
    ),
  );
  return [
    el("h2", { id: "result-title" }, m.title),
    el("div", { class: "small muted" }, m.note),
    el("div", { class: "countdown", id: "next-deal", role: "timer", "aria-live": "off" }),
    el("div", { class: "result-seats" }, seats),
    renderScores(scores),
    el(
      "div",
      { class: "buttons" },
      el("a", { class: "btn ghost", href: `/t/${code}/history` }, "History"),
      el("button", { class: "btn primary", type: "button", id: "result-continue", onclick: on.ready }, "I'm ready"),
    ),
  ];
}

// Updates the live parts of an open result window.
export function renderResultLive(m, box) {
  const countdown = box.querySelector("#next-deal");
  const button = box.querySelector("#result-continue");
  if (countdown) countdown.textContent = m.countdown;
  if (button) {
    button.disabled = m.ready;
    button.textContent = m.button;
  }
}

export function scoresModel(s) {
  const m = s.game.match;
  return {
    corner: "Deal",
    heads: s.game.room.seats.map((seat) => (seat.seat === s.game.you ? "You" : seat.name)),
    rows: m.history.map((h) => ({
      label: `${h.deal + 1}${h.winner !== null ? ` · ${nameOf(s, h.winner)}` : " · wash"}`,
      scores: h.scores,
    })),
    totals: m.totals,
    money: m.money,
  };
}

// The rows of a scores table (the history page draws its totals with them): a column a seat,
// a row a deal, then the totals and (when given) the money.
export function scoreRows(m) {
  const foot = [
    el(
      "tr",
      {},
      el("td", {}, "Total"),
      m.totals.map((v) => el("td", { class: scoreClass(v) }, signed(v))),
    ),
  ];
  if (m.money)
    foot.push(
      el(
        "tr",
        {},
        el("td", {}, "Money"),
        m.money.map((v) => el("td", {}, v)),
      ),
    );
  return [
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", {}, m.corner),
        m.heads.map((h) => el("th", {}, h)),
      ),
    ),
    el(
      "tbody",
      {},
      m.rows.map((row) =>
        el(
          "tr",
          {},
          el("td", {}, row.label),
          row.scores.map((v) => el("td", { class: scoreClass(v) }, signed(v))),
        ),
      ),
    ),
    el("tfoot", {}, foot),
  ];
}

export function renderScores(m) {
  return el(
    "div",
    { class: "table-scroll" },
    el("table", { class: "scores", "aria-label": "match scores" }, scoreRows(m)),
  );
}
