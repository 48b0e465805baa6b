// The history page: every finished deal of a table, replayed step by step with all hands open.
import { api, backEl, cardEl, codeFromPath, el, prettyCard, RULE_LABELS, scoreClass, signed } from "/static/cards.js";

const $ = (id) => document.getElementById(id);
const code = codeFromPath();
let names = [];
let replay = null;
let step = 0;
let timer = null;

function describe(e) {
  const who = e.seat === null || e.seat === undefined ? "" : names[e.seat] || `Seat ${e.seat + 1}`;
  const card = e.card ? prettyCard(e.card) : "";
  switch (e.action) {
    case "dealt": return `Dealt: cut card ${prettyCard(e.detail)}, open card ${card}.`;
    case "drew": return e.detail === "open" ? `${who} took ${card} from the open pile.` : `${who} drew ${card} from the stock${e.forced ? " (time-out)" : ""}.`;
    case "discarded": return `${who} discarded ${card}${e.detail === "forced" ? " (time-out)" : ""}.`;
    case "reshuffled": return `The open pile (${e.number} cards) became the new stock.`;
    case "declared": return `${who} declared with ${prettyCard(e.finish)} on the finish slot (option ${e.detail}).`;
    case "declared_wrongly": return `${who} declared wrongly (${prettyCard(e.finish)}) and is out.`;
    case "dropped": return `${who} dropped (${e.detail}, ${e.number} points).`;
    case "timed_out": return `${who} ran out of time (${e.number} in a row).`;
    case "deal_ended": return e.detail === "wash" ? "The deal ended in a wash." : `The deal is over: ${who} wins.`;
    default: return e.action;
  }
}

function showError(message) {
  $("error").textContent = message;
  $("error").classList.toggle("hidden", !message);
}

async function loadList() {
  $("code").textContent = code;
  $("back").href = `/t/${code}`;
  try {
    const data = await api(`/api/tables/${code}/deals`);
    names = data.names;
    $("title").textContent = `Finished deals (${data.finished.length} of ${data.deals})`;
    if (!data.finished.length) $("deals").replaceChildren(el("div", { class: "muted" }, "No deal has finished yet."));
    else $("deals").replaceChildren(...data.finished.map((d) => el("button", {
      class: "deal-item", type: "button", dataset: { deal: d.deal }, onclick: () => openDeal(d.deal),
    },
      el("span", {}, el("b", {}, `Deal ${d.deal + 1}`), ` · ${d.winner === null ? "wash" : names[d.winner] + " won"} · ${d.reason === "declared" ? "option " + d.option : d.reason.replace("_", " ")} · ${d.turns} turns`),
      el("span", {}, d.scores.map((s, i) => el("span", { class: scoreClass(s) }, `${i ? " / " : ""}${signed(s)}`))))));
    const totals = $("totals");
    totals.replaceChildren(
      el("thead", {}, el("tr", {}, el("th", {}, ""), names.map((n) => el("th", {}, n)))),
      el("tfoot", {}, el("tr", {}, el("td", {}, "Total"), data.totals.map((t) => el("td", { class: scoreClass(t) }, signed(t))))));
    totals.classList.toggle("hidden", !data.finished.length);
    const wanted = new URLSearchParams(location.search).get("deal");
    if (wanted !== null) openDeal(Number(wanted));
  } catch (error) {
    showError(error.message);
  }
}

async function openDeal(number) {
  stop();
  document.querySelectorAll(".deal-item").forEach((n) => n.classList.toggle("active", Number(n.dataset.deal) === number));
  try {
    replay = await api(`/api/tables/${code}/deals/${number}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  names = replay.names;
  $("viewer").classList.remove("hidden");
  $("viewer-title").textContent = `Deal ${number + 1} — step by step`;
  $("slider").max = String(replay.frames.length - 1);
  show(0);
  $("viewer").scrollIntoView({ behavior: "smooth", block: "start" });
}

function show(index) {
  step = Math.max(0, Math.min(index, replay.frames.length - 1));
  const frame = replay.frames[step];
  const j = replay.jokers;
  $("slider").value = String(step);
  $("step").textContent = `${step + 1} / ${replay.frames.length}`;
  $("events").replaceChildren(...frame.events.map((e) => el("div", {}, describe(e))));
  const top = frame.open_pile[frame.open_pile.length - 1];
  $("replay-felt").replaceChildren(
    el("div", { class: "pile" }, el("span", { class: "label" }, "Stock"),
      el("div", { class: "slot" }, backEl("small"), el("span", { class: "count" }, frame.stock_size))),
    el("div", { class: "pile" }, el("span", { class: "label" }, "Open pile"),
      el("div", { class: "slot" }, top ? cardEl(top.card, j, { size: "small" }) : el("div", { class: "empty-slot" }),
        frame.open_count > 1 ? el("span", { class: "count" }, frame.open_count) : null),
      el("div", { class: "by" }, top ? (top.by === null ? "first open card" : names[top.by]) : "")),
    el("div", { class: "pile" }, el("span", { class: "label" }, "Cut card"), el("div", { class: "slot" }, cardEl(j.cut, j, { size: "small" }))));
  $("replay-seats").replaceChildren(...frame.hands.map((hand, seat) => el("div", {
    class: "replay-seat" + (frame.turn === seat ? " turn" : ""),
  },
    el("span", { class: "who" }, names[seat], el("div", { class: "small muted" }, frame.standing[seat].replace("_", " "))),
    el("div", { class: "cards-row" }, hand.map((c) => cardEl(c, j, { size: "tiny" }))))));
  const last = step === replay.frames.length - 1;
  $("replay-result").replaceChildren(last ? resultTable(replay.result) : "");
  $("play").textContent = timer ? "Pause" : "Play";
}

function resultTable(r) {
  return el("div", { class: "table-scroll" }, el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Pays"), el("th", {}, "Value"), el("th", {}, "Score"), el("th", {}, "Money"))),
    el("tbody", {}, r.seats.map((s) => el("tr", {},
      el("td", {}, s.name + (s.seat === r.winner ? " ★" : "")),
      el("td", {}, s.rule ? `${s.penalty} (${RULE_LABELS[s.rule] || s.rule})` : "—"),
      el("td", {}, `${s.value} → ${signed(s.value_net)}`),
      el("td", { class: scoreClass(s.score) }, signed(s.score)),
      el("td", {}, s.money))))));
}

function stop() { if (timer) clearInterval(timer); timer = null; if (replay) $("play").textContent = "Play"; }

function play() {
  if (timer) { stop(); return; }
  if (step >= replay.frames.length - 1) show(0);
  timer = setInterval(() => {
    if (step >= replay.frames.length - 1) { stop(); return; }
    show(step + 1);
  }, 700);
  $("play").textContent = "Pause";
}

$("first").addEventListener("click", () => { stop(); show(0); });
$("prev").addEventListener("click", () => { stop(); show(step - 1); });
$("next").addEventListener("click", () => { stop(); show(step + 1); });
$("last").addEventListener("click", () => { stop(); show(replay.frames.length - 1); });
$("play").addEventListener("click", play);
$("slider").addEventListener("input", (e) => { stop(); show(Number(e.target.value)); });
document.addEventListener("keydown", (e) => {
  if (!replay) return;
  if (e.key === "ArrowRight") { stop(); show(step + 1); }
  if (e.key === "ArrowLeft") { stop(); show(step - 1); }
});
loadList();
