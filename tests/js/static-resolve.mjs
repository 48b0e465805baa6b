// The resolve hook behind static-imports.mjs: "/static/…" is the folder the server serves at
// /static/ (src/rummy21/server/static), and its .js files are ES modules.
const STATIC = new URL("../../src/rummy21/server/static/", import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  if (!specifier.startsWith("/static/")) return nextResolve(specifier, context);
  const resolved = await nextResolve(new URL(specifier.slice("/static/".length), STATIC).href, context);
  return { ...resolved, format: "module" };
}
