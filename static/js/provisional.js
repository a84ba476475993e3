// Provisional rows: the first rows of a large document's result, made in the page (scan.js) while
// the server works on the exact answer, shown marked as provisional, and taken away when the
// answer arrives (which replaces them; an error answer removes them).
//
//   const prov = new Provisional(afterEl, { id: "provisional" });  // prov.box: where the panel goes (for watchStale)
//   prov.show(headlineText, noteText, bodyEl, { rows });   // rows: the values the answer is checked against
//   prov.settle(answerRows)   // the answer came: the panel goes; the results element gets
//                             // data-provisional="confirmed" (the answer's first rows are these) or "differed"
//   prov.conclude(same)       // the same, the view having compared the rows with its answer itself
//   prov.replaced()           // the answer came, of another shape than the rows (Validate's verdict):
//                             // the panel goes, the results element gets data-provisional="replaced"
//   prov.drop()               // the run was replaced or failed: the panel goes
//   const pass = new PagePass();   // one scan.js pass in a worker for the input's current source
//   pass.start(source, options)    // (a File or a text): scanInWorker(options), the one before stopped
//   await pass.of(source)          // its answer (null: none, or it was for another source)
//
// The panel carries data-provisional="true" and aria-busy; every row element inside carries
// data-provisional-row.  Timings for the benchmark and the tests: performance marks
// "workbench:provisional" (the rows drawn) and "workbench:answer" (the answer shown).

import { h } from "./dom.js";
import { scanInWorker, warmWorker } from "./scan.js";

export class Provisional {
  constructor(after, { id = "provisional", results = after } = {}) {
    this.box = h("div", { class: "provisional-box", id: `${id}-box` });
    after.after(this.box);
    this.id = id;
    this.results = results;
    this.panel = null;
    this.rows = null;
  }

  get shown() { return Boolean(this.panel); }

  show(headline, note, body, { rows = [] } = {}) {
    this.drop();
    this.rows = rows;
    this.panel = h("section", { class: "provisional", id: this.id, "data-provisional": "true", "aria-busy": "true",
      "aria-label": "Provisional first rows" },
    h("div", { class: "provisional-head" }, h("span", { class: "provisional-tag" }, "Provisional"), " ", headline),
    h("p", { class: "muted provisional-note" }, note),
    body);
    delete this.results.dataset.provisional;
    this.box.append(this.panel);
    performance.mark("workbench:provisional");
  }

  /** The server's answer is shown: compare its first rows with the provisional ones, then go. */
  settle(answerRows) {
    if (!this.panel) return;
    const same = Array.isArray(answerRows) && this.rows.length <= answerRows.length
      && this.rows.every((r, i) => JSON.stringify(r) === JSON.stringify(answerRows[i]));
    this.conclude(same, answerRows);
  }

  /** The answer is shown and the view has checked the rows against it itself (`same`). */
  conclude(same, answer = null) {
    if (!this.panel) return;
    this.results.dataset.provisional = same ? "confirmed" : "differed";
    if (!same) console.warn("workbench: the provisional rows differ from the server's answer", this.rows, answer);
    this.drop();
    performance.mark("workbench:answer");
  }

  /** The answer is shown and is not a list of the same rows (a verdict): the panel goes. */
  replaced() {
    if (!this.panel) return;
    this.results.dataset.provisional = "replaced";
    this.drop();
    performance.mark("workbench:answer");
  }

  drop() {
    this.panel?.remove();
    this.panel = null;
  }
}

/** One pass of scan.js over a large input in a worker (scanInWorker), for the input's source of
 *  the moment: a File (its bytes, read in the worker before the page decodes them) or a text. */
export class PagePass {
  constructor() { this.source = null; this.done = null; this.controller = null; warmWorker(); }

  /** `options.utf8`: a File the page has decoded strictly already (its bytes are not checked again). */
  start(source, options) {
    this.stop();
    this.source = source;
    this.controller = new AbortController();
    const from = typeof source === "string" ? { text: source } : source instanceof Blob ? { file: source } : {};
    this.done = scanInWorker({ ...from, ...options, signal: this.controller.signal });
    return this.done;
  }

  /** Its answer when it is the pass for `source`, else null. */
  async of(source) {
    if (this.source !== source || !this.done) return null;
    const found = await this.done;
    return this.source === source ? found : null;
  }

  stop() {
    this.controller?.abort();
    this.source = null; this.done = null; this.controller = null;
  }
}

/** A table of provisional rows: `head` the column titles, `rows` arrays of cells. */
export function rowsTable(id, head, rows) {
  return h("table", { class: "list provisional-table", id },
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((cells, n) => h("tr", { "data-provisional-row": "", "data-index": String(n) },
      cells.map((c) => h("td", {}, c))))));
}

/** A text cut to `n` characters (its whole text in the title). */
export function clipped(text, n = 120) {
  return text.length > n ? h("span", { title: text.slice(0, 2000) }, text.slice(0, n) + "…") : text;
}

/** The first `k` lines of `text` (without reading the rest of a long text). */
export function firstLines(text, k) {
  let end = -1;
  for (let n = 0; n < k; n++) {
    end = text.indexOf("\n", end + 1);
    if (end < 0) return text.split("\n");
  }
  return text.slice(0, end).split("\n");
}

/** Line-numbered text lines (the first lines of a formatted document). */
export function lineRows(lines) {
  return h("div", { class: "prows mono", role: "list" }, lines.map((text, i) =>
    h("div", { class: "prow", role: "listitem", "data-provisional-row": "", "data-line": String(i + 1) },
      h("span", { class: "pnum", "aria-hidden": "true" }, String(i + 1)), h("code", { class: "ptext" }, text))));
}
