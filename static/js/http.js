// Talking to our own server: JSON posts (a long text sent in slices), debounce, latest-only runs.

/** POST a JSON body to our own origin; resolves to {ok, status, body}. Never throws for HTTP errors. */
export async function postJSON(url, body, { signal } = {}) {
  return send(url, JSON.stringify(body), signal);
}

const SLICE_CHARS = 1 << 20;
export const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** postJSON for bodies with very long strings (a 20 MB document): the JSON text is written by a
 *  worker (encode-worker.js) off the main thread — the page only hands the body over — or, where
 *  there is no worker, each string longer than a megabyte is encoded in slices with a pause
 *  between them, so the page never blocks for long.  Rejects with an AbortError when `signal`
 *  is aborted meanwhile. */
export async function postLarge(url, body, { signal } = {}) {
  const long = Object.values(body).some((v) => typeof v === "string" && v.length > SLICE_CHARS);
  if (!long) return send(url, JSON.stringify(body), signal);
  const blob = await encodeInWorker(body, signal);
  return send(url, blob || await encodeInSlices(body, signal), signal);
}

let worker = null;       // the encoding worker, made on first use (false: none can be made)
let workerSeq = 0;
const waiting = new Map();  // request id → resolve

/** The body as a JSON Blob written by the worker; null when there is no worker. */
function encodeInWorker(body, signal) {
  if (worker === null) {
    try {
      worker = new Worker(new URL("./encode-worker.js", import.meta.url));
      worker.onmessage = (e) => { const done = waiting.get(e.data.id); waiting.delete(e.data.id); done?.(e.data.blob || null); };
      worker.onerror = () => { worker = false; for (const done of waiting.values()) done(null); waiting.clear(); };
    } catch { worker = false; }
  }
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const id = ++workerSeq;
    const onAbort = () => { waiting.delete(id); reject(new DOMException("superseded", "AbortError")); };
    waiting.set(id, (blob) => { signal?.removeEventListener("abort", onAbort); resolve(blob); });
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.postMessage({ id, body });
  });
}

async function encodeInSlices(body, signal) {
  const parts = ["{"];
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    parts.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (typeof value !== "string" || value.length <= SLICE_CHARS) { parts.push(JSON.stringify(value)); continue; }
    parts.push('"');
    for (let i = 0; i < value.length;) {
      let j = Math.min(value.length, i + SLICE_CHARS);
      const c = value.charCodeAt(j - 1);
      if (j < value.length && c >= 0xd800 && c <= 0xdbff) j--;  // keep a surrogate pair together
      parts.push(JSON.stringify(value.slice(i, j)).slice(1, -1));
      i = j;
      await pause();
      if (signal?.aborted) throw new DOMException("superseded", "AbortError");
    }
    parts.push('"');
  }
  parts.push("}");
  return new Blob(parts, { type: "application/json" });
}

async function send(url, payload, signal) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: payload,
      signal,
      credentials: "same-origin",
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    return { ok: false, status: 0, body: { error: { code: "network", message: "The workbench server did not answer: is it still running?" } } };
  }
  let parsed = null;
  const text = await response.text();
  try { parsed = JSON.parse(text); } catch { parsed = { error: { code: "bad_response", message: text.slice(0, 300) } }; }
  return { ok: response.ok, status: response.status, body: parsed, text };
}

/** Run fn at most once per `wait` ms of quiet. */
export function debounce(fn, wait = 250) {
  let t = null;
  const wrapped = (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), wait); };
  wrapped.cancel = () => clearTimeout(t);
  return wrapped;
}

/** What a run gets when its request fails outright (an HTTP error is an answer, not this). */
export const networkAnswer = (err) => ({ ok: false, status: 0, body: { error: { code: "network", message: String(err) } } });

/** The error an answer that is not ok carries: the server's own, else one naming the HTTP status. */
export const answerError = (res) => res.body?.error || { code: "unknown", message: `HTTP ${res.status}` };

/** latestOnly for a view's runs: a request that fails outright answers as a network error. */
export function latestAnswer(fn) {
  const latest = latestOnly(fn);
  return (...args) => latest(...args).catch(networkAnswer);
}

/** Live-run helper: only the latest request counts; older answers are dropped. */
export function latestOnly(fn) {
  let seq = 0; let controller = null;
  return async (...args) => {
    const mine = ++seq;
    if (controller) controller.abort();
    controller = new AbortController();
    try {
      const result = await fn(controller.signal, ...args);
      return mine === seq ? result : undefined;
    } catch (err) {
      if (err.name === "AbortError") return undefined;
      throw err;
    }
  };
}

