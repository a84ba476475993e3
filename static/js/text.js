// Words and sizes shown to the user: plural, bytes, "12.3 KB · 420 lines".

/** "1 match" / "3 matches"; `many` defaults to one + "s". */
export function plural(n, one, many = one + "s") { return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`; }

/** "12.3 KB · 420 lines" for a text. */
export function sizeLine(text) {
  const bytes = new Blob([text]).size;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return `${formatBytes(bytes)} · ${lines.toLocaleString()} line${lines === 1 ? "" : "s"}`;
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}


/** Lines of a text (1 + its newlines). */
export function countLines(text) {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}
