#!/usr/bin/env node
// A bot for rummy21's bot protocol (version 2), for Node, with no dependency.
//
// It draws from the stock, then discards the card it drew (or the first card it may
// discard); it never declares. Try it with
//
//     rummy21 bot check "node examples/bots/first_legal.js"
//     rummy21 bot connect --url https://host/t/CODE --exec "node examples/bots/first_legal.js"
//
// Every line it reads is a JSON object with a "type"; only "move" is answered, with the
// same "id" and one of the "legal" actions. Diagnostics go to stderr (the log): here, its
// score at the "end" of each deal.
"use strict";

const readline = require("readline");

function choose(view, legal) {
  const draws = legal.filter((action) => action.startsWith("draw"));
  if (draws.length > 0) {
    return draws.includes("draw stock") ? "draw stock" : draws[0];
  }
  const mine = "discard " + view.drawn;
  if (legal.includes(mine)) {
    return mine;
  }
  const discard = legal.find((action) => action.startsWith("discard "));
  return discard !== undefined ? discard : legal[0];
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello" && message.protocol !== 2) {
    console.error("protocol " + message.protocol + " is not mine");
  } else if (message.type === "end") {
    console.error("deal over (" + message.reason + "): " + message.scores[message.seat]);
  } else if (message.type === "move") {
    const action = choose(message.view, message.legal);
    process.stdout.write(JSON.stringify({ id: message.id, action: action }) + "\n");
  }
});
