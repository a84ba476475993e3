// A view's runs against the server: a live run a moment after an edit, an explicit one (the form's
// submit, Ctrl/⌘+Enter) at once; only the latest run's answer is shown, and the error of an
// explicit run (or of a paste, a file, a sample) selects its place in the input.

import { debounce, latestAnswer } from "./http.js";
import { onRun } from "./shortcuts.js";
import { DocumentInput } from "./inputs.js";

export class ViewRuns {
  /** `go()` runs the view; `post(signal, body)` sends its request; a live run waits `wait` ms of
   *  quiet. With `form`, its submit and Ctrl/⌘+Enter run the view at once. */
  constructor({ go, post, wait, form }) {
    this.seq = 0;            // the latest run's number: an answer for an older run is dropped
    this.markNext = false;   // the next run's error selects its line in the input
    this.go = go;
    this.live = debounce(() => go(), wait);
    this.request = latestAnswer(post);
    if (form) onRun(form, () => this.now());
  }

  /** Run at once, explicitly: its error is marked in the input. */
  now() { this.live.cancel(); this.markNext = true; this.go(); }

  /** The view was reset: an answer on its way is not shown. */
  drop() { ++this.seq; }

  /** Whether run number `mine` is still the latest. */
  isLatest(mine) { return mine === this.seq; }

  /** Start a run and send `body`: resolves to {res, mine, mark} (mark: select its error in the
   *  input), or null when a newer run (or a reset) came meanwhile. */
  async send(body) {
    const mine = ++this.seq;
    const mark = this.markNext; this.markNext = false;
    const res = await this.request(body);
    return res === undefined || mine !== this.seq ? null : { res, mine, mark };
  }

  /** A DocumentInput's onChange: an empty input calls `onEmpty`; a file, the sample or a large paste
   *  runs at once; an edit runs live soon, or (a large text) waits for an explicit run. */
  changed(input, { reason, explicit, empty, live }, onEmpty) {
    this.markNext = explicit;
    if (empty) { this.live.cancel(); onEmpty(); return; }
    if (reason === "file" || reason === "sample" || (input.isBig && reason === "paste")) { this.live.cancel(); this.go(); return; }
    if (live) { input.setState({ kind: "busy" }, { soon: true }); this.live(); }
    else { this.live.cancel(); input.setState({ kind: "large" }, { soon: true }); }
  }
}

/** A view of one DocumentInput (its other `options`): its changes drive the runs (an emptied input
 *  calls `onEmpty`), which post `url` through it. */
export function inputRuns({ url, wait, form, go, onEmpty, ...options }) {
  const runs = new ViewRuns({ go, wait, form, post: (signal, body) => input.post(url, body, { signal }) });
  const input = new DocumentInput({ ...options, onChange: (change) => runs.changed(input, change, onEmpty) });
  return { runs, input };
}
