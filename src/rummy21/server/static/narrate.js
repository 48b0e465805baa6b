// One sentence per public event, for the table log and the history replay (one narrator).
import { prettyCard } from "/static/cards.js";

// ``who(seat)`` names a seat ("You", "Ravi"). A card drawn from the stock is named only when
// the event carries it (the history shows a viewer its own draws; the live log never does).
export function describeEvent(e, who) {
  const name = who(e.seat);
  const card = e.card ? prettyCard(e.card) : "";
  switch (e.action) {
    case "dealt": return `Deal started: cut card ${prettyCard(e.detail)}, open card ${card}.`;
    case "drew":
      if (e.detail === "open") return `${name} took ${card} from the open pile.`;
      return `${name} drew ${card ? card + " " : ""}from the stock${e.forced ? " (time-out)" : ""}.`;
    case "discarded": return `${name} discarded ${card}${e.detail === "forced" ? " (time-out)" : ""}.`;
    case "reshuffled": return `The open pile (${e.number} cards) was shuffled into a new stock.`;
    case "declared": return `${name} declared${e.finish ? ` with ${prettyCard(e.finish)} on the finish slot` : ""} (option ${e.detail}).`;
    case "declared_wrongly": return `${name} declared wrongly${e.finish ? ` (${prettyCard(e.finish)})` : ""} and is out.`;
    case "dropped": return `${name} dropped (${e.detail} drop, ${e.number} points).`;
    case "timed_out": return `${name} ran out of time (${e.number} in a row).`;
    case "deal_ended": return e.detail === "wash" ? "The deal ended in a wash." : `The deal is over: ${name} ${name === "You" ? "win" : "wins"}.`;
    default: return e.action;
  }
}
