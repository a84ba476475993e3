// A worker for scan.js's extractScan: reads a chosen file's bytes itself (or encodes a text it is
// given) and runs the page's pass over them off the main thread, while the page decodes the same
// file for its input.   in: {file | text, segs, maxRows}   out: {found} (null: no rows)

import { extractScan } from "./scan.js";

self.onmessage = async (e) => {
  const { file, text, segs, maxRows } = e.data;
  let found = null;
  try {
    const bytes = file ? new Uint8Array(await file.arrayBuffer()) : new TextEncoder().encode(text);
    found = await extractScan(bytes, segs, { maxRows, sliceMs: Infinity });
  } catch { found = null; }
  self.postMessage({ found });
};
