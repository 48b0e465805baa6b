// The lobby: create a table (seats, bots, rules, stakes), join one by its code.
import { cardEl, el } from "/static/cards.js";
import { api } from "/static/net.js";
import { mySeats, savedName, setName, setSeat } from "/static/seats.js";

const $ = (id) => document.getElementById(id);

// The bots a seat may be given, weakest first, with their levels (GET /api/bots): the
// server names them, so the lobby, the table's badges and its notices say the same.
let bots = null;
// The rule sets, each with the turn timer a table gets unless its creator chooses one
// (GET /api/rules: RuleSet.turn_seconds); the lobby states no default of its own.
let ruleSets = [];

async function loadBots() {
  try {
    [bots, ruleSets] = await Promise.all([
      api("/api/bots").then((answer) => answer.bots),
      api("/api/rules").then((answer) => answer.rules),
    ]);
  } catch (error) {
    bots = bots || [];
    showError("create-error", `Could not load the bots and rules: ${error.message}`);
  }
  seatChoices();
  timerDefault();
  $("create-btn").disabled = false;
}

// The timer field shows the chosen rule set's turn timer until the player types one.
function timerDefault() {
  const field = $("c-timer");
  if (field.dataset.chosen) return;
  const rules = ruleSets.find((r) => r.name === $("c-rules").value);
  field.value = rules ? String(rules.turn_seconds) : "";
}

function seatChoices() {
  const n = Number($("c-players").value);
  const box = $("seat-choices");
  if (bots === null) {
    box.replaceChildren(el("p", { class: "muted" }, "Loading the bots…"));
    return;
  }
  const previous = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  box.append(el("div", { class: "seat-choice" }, el("span", {}, "Seat 1"), el("b", {}, "You")));
  for (let seat = 1; seat < n; seat++) {
    const select = el(
      "select",
      { "aria-label": `Seat ${seat + 1}`, name: `seat${seat}` },
      ...bots.map((bot) => el("option", { value: bot.name }, `${bot.level} bot`)),
      el("option", { value: "human" }, "Open seat (a friend)"),
    );
    select.value = previous[seat - 1] || "greedy";
    box.append(el("div", { class: "seat-choice" }, el("span", {}, `Seat ${seat + 1}`), select));
  }
}

function showError(id, message) {
  const box = $(id);
  box.textContent = message;
  box.classList.toggle("hidden", !message);
}

async function create(event) {
  event.preventDefault();
  showError("create-error", "");
  const name = $("c-name").value.trim();
  setName(name);
  const seats = ["human", ...[...$("seat-choices").querySelectorAll("select")].map((s) => s.value)];
  const body = {
    name,
    seats,
    rules: $("c-rules").value,
    point_value: $("c-point").value.trim() || "1",
    // (an empty field: the rule set's timer, which the server applies)
    ...($("c-timer").value.trim() === "" ? {} : { turn_seconds: Number($("c-timer").value) }),
    deals: Number($("c-deals").value || 1),
    public_history: $("c-public").checked,
  };
  $("create-btn").disabled = true;
  try {
    const made = await api("/api/tables", { method: "POST", body });
    setSeat(made.code, { seat: made.seat, token: made.token, name });
    location.href = `/t/${made.code}`;
  } catch (error) {
    showError("create-error", error.message);
    $("create-btn").disabled = false;
  }
}

async function join(event) {
  event.preventDefault();
  showError("join-error", "");
  const code = $("j-code").value.trim().toUpperCase();
  const name = $("j-name").value.trim();
  setName(name);
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(code)}/join`, { method: "POST", body: { name } });
    setSeat(joined.code, { seat: joined.seat, token: joined.token, name });
    location.href = `/t/${joined.code}`;
  } catch (error) {
    showError("join-error", error.message);
  }
}

function listMine() {
  const mine = mySeats().slice(0, 12);
  if (!mine.length) return;
  $("mine").classList.remove("hidden");
  $("mine-list").replaceChildren(
    ...mine.map((m) => el("a", { class: "pill code", href: `/t/${m.code}` }, `${m.code} · seat ${m.seat + 1}`)),
  );
}

function fan() {
  const box = $("fan");
  const cards = ["JK", "7H", "8H", "9H", "QS"];
  const jokers = { joker_cards: ["QS", "QH", "QD", "QC", "KS", "JS", "JK"], value_cards: ["QS", "KS", "JS"] };
  cards.forEach((c, i) => {
    const node = cardEl(c, jokers);
    node.style.transform = `rotate(${(i - 2) * 12}deg)`;
    box.append(node);
  });
}

$("c-players").addEventListener("change", seatChoices);
$("c-rules").addEventListener("change", timerDefault);
$("c-timer").addEventListener("input", () => {
  $("c-timer").dataset.chosen = "1";
});
$("create").addEventListener("submit", create);
$("join").addEventListener("submit", join);
const remembered = savedName();
$("c-name").value = remembered;
$("j-name").value = remembered;
const wanted = new URLSearchParams(location.search).get("join");
if (wanted) $("j-code").value = wanted.toUpperCase();
$("create-btn").disabled = true;
seatChoices();
loadBots();
listMine();
fan();
