// A worker for scan.js's passes over a whole document: reads a chosen file's bytes itself (or
// encodes a text it is given) and runs the pass off the main thread, before the page decodes the
// same file for its input.
//   in: {mode: "extract", source, segs, maxRows}   out: {found} (null: no rows)
//       {mode: "items", source, maxRows}            (itemsScan: the first items of the log)
//       {mode: "diff", left, right, maxRows, parseStrings}   (diffScan)
//   a source: {file, utf8} (utf8: the page decoded the file strictly already) or {text}

import { extractScan, itemsScan, diffScan, validUtf8 } from "./scan.js";

/** The UTF-8 bytes of a source, or null (a file that is not UTF-8 is read with U+FFFD for its
 *  bad bytes: not these bytes).  `utf8`: the page has decoded the file strictly already. */
async function bytesOf({ file, text, utf8 = false }) {
  if (!file) return new TextEncoder().encode(text);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return utf8 || validUtf8(bytes) ? bytes : null;
}

self.onmessage = async (e) => {
  const { mode = "extract", maxRows } = e.data;
  let found = null;
  try {
    if (mode === "diff") {
      const [a, b] = await Promise.all([bytesOf(e.data.left), bytesOf(e.data.right)]);
      if (a && b) found = diffScan(a, b, { maxRows, parseStrings: e.data.parseStrings });
    } else {
      const bytes = await bytesOf(e.data.source);
      if (bytes && mode === "items") found = await itemsScan(bytes, { maxRows, sliceMs: Infinity });
      else if (bytes) found = await extractScan(bytes, e.data.segs, { maxRows, sliceMs: Infinity });
    }
  } catch { found = null; }
  self.postMessage({ found });
};
