// A worker for scan.js's extractScan: reads a chosen file's bytes itself (or encodes a text it is
// given) and runs the page's pass over them off the main thread, before the page decodes the same
// file for its input.   in: {file | text, segs, maxRows}   out: {found} (null: no rows)

import { extractScan, validUtf8 } from "./scan.js";

self.onmessage = async (e) => {
  const { file, text, segs, maxRows } = e.data;
  let found = null;
  try {
    const bytes = file ? new Uint8Array(await file.arrayBuffer()) : new TextEncoder().encode(text);
    // a file that is not UTF-8 is read with U+FFFD for its bad bytes: not these bytes, no rows
    if (!file || validUtf8(bytes)) found = await extractScan(bytes, segs, { maxRows, sliceMs: Infinity });
  } catch { found = null; }
  self.postMessage({ found });
};
