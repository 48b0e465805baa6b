// The modules the pages import link under Node as they do in the browser: every name a module
// imports from another one exists (none needs a DOM until its functions are called).
import assert from "node:assert/strict";
import { test } from "node:test";

const MODULES = [
  "cards.js",
  "layout.js",
  "net.js",
  "seats.js",
  "state.js",
  "store.js",
  "views/declare.js",
  "views/fit.js",
  "views/hand.js",
  "views/result.js",
  "views/table.js",
  "views/windows.js",
];

for (const name of MODULES) {
  test(`${name} links against the modules it imports`, async () => {
    const module = await import(`/static/${name}`);
    assert.ok(Object.keys(module).length > 0);
  });
}

test("an unknown /static/ module is an error, not a silent pass", async () => {
  await assert.rejects(import("/static/no-such-module.js"), { code: "ERR_MODULE_NOT_FOUND" });
});
