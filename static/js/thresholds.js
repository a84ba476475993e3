// The page's size thresholds (characters), told by the server: <body data-thresholds>, made from
// workbench/limits.py (PAGE_LIVE_CHARS for this view's "live", PAGE_THRESHOLDS for the rest).

const told = JSON.parse(globalThis.document?.body?.dataset.thresholds || "{}");

/** The threshold `name` ("live", "big", "keep", "parse"); a name the server did not tell is a fault. */
export function threshold(name) {
  const value = told[name];
  if (typeof value !== "number") throw new Error(`the server told no threshold "${name}"`);
  return value;
}
