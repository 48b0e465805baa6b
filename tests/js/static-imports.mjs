// Test-only: lets Node import the browser table's modules as the pages do, by their URL path
// ("/static/layout.js"), and as ES modules. Loaded with `node --import ./tests/js/static-imports.mjs`
// (tests/test_js_units.py and `npm test` do); the production files stay as the browser gets them.
import { register } from "node:module";

register("./static-resolve.mjs", import.meta.url);
