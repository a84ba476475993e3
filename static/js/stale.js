// A result that no longer belongs to its input is marked stale at once, in every view.
//
//   const stale = watchStale({ form, results: [summary, viewerEl], hint: () => "Press Ctrl/⌘+Enter." });
//
// Any `input` or `change` event inside `form` (typing, a pasted or opened file: DocumentInput
// sends "workbench:input" for the changes the browser does not announce, such as a large paste
// held in memory) marks the results stale when they show something: each element gets the
// class "stale" (dimmed) and data-stale, and a note ("Out of date …") is put before the first.
// The mark goes as soon as the page replaces the children of `freshOn` (by default the first
// result element: the summary a page rewrites for every result, error, busy or empty state), or
// when the page calls stale.fresh().  Events from inside the results (a viewer's find box) and
// from elements marked data-no-stale do not count.

import { h } from "./dom.js";

export function watchStale({ form, results, freshOn = results[0], hint = () => "",
  shows = () => defaultShows(freshOn) }) {
  results = results.filter(Boolean);
  let note = null;
  let isStale = false;

  const fresh = () => {
    if (!isStale) return;
    isStale = false;
    for (const el of results) { el.classList.remove("stale"); delete el.dataset.stale; }
    note?.remove();
    note = null;
  };

  const mark = () => {
    if (!shows()) return;
    const text = hint() || "";
    if (!isStale) {
      isStale = true;
      for (const el of results) { el.classList.add("stale"); el.dataset.stale = "true"; }
      note = h("div", { class: "stale-note", id: "stale-note", role: "status" });
      freshOn.before(note);
    }
    note.replaceChildren(h("strong", {}, "Out of date"), " — the input changed since this result was made.", text ? ` ${text}` : "");
  };

  const onEvent = (e) => {
    const t = e.target;
    if (!(t instanceof Element)) return;
    if (t.closest("[data-no-stale], dialog, .jv") || results.some((el) => el.contains(t))) return;
    // a text field's "change" (on blur) repeats the "input" events already counted
    if (e.type === "change" && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !/^(checkbox|radio|file)$/.test(t.type)))) return;
    mark();
  };
  for (const type of ["input", "change", "workbench:input"]) form.addEventListener(type, onEvent);

  new MutationObserver((records) => {
    if (records.some((r) => r.type === "childList")) fresh();
  }).observe(freshOn, { childList: true });

  return { mark, fresh, get isStale() { return isStale; } };
}

function defaultShows(el) {
  if (!el || el.hidden) return false;
  for (const child of el.children) if (child.id !== "placeholder" && !child.hidden) return true;
  return false;
}
