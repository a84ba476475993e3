// A worker for http.js's postLarge: writes a request body with very long strings (a 20 MB
// document) as JSON text off the page's main thread, and answers with it as a Blob (handed
// back without a copy), so the page stays free to draw its first rows meanwhile.
//   in:  {id, body}      out: {id, blob} | {id, error}

self.onmessage = (e) => {
  const { id, body } = e.data;
  try {
    self.postMessage({ id, blob: new Blob([JSON.stringify(body)], { type: "application/json" }) });
  } catch (err) {
    self.postMessage({ id, error: String(err) });
  }
};
