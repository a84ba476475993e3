// Keyboard shortcuts shared by every page.

/** A view's script runs `fn` when its form is submitted (instead of the plain post) or on Ctrl/⌘+Enter. */
export function onRun(form, fn) {
  form.addEventListener("submit", (e) => { e.preventDefault(); fn(); });
  document.addEventListener("workbench:run", () => fn());
}

/** Ctrl/Cmd+Enter runs the view: pages listen for the "workbench:run" event. */
export function shortcuts() {
  const dialog = document.getElementById("shortcuts");
  document.addEventListener("keydown", (e) => {
    const inField = e.target.closest?.("input, textarea, select, [contenteditable]");
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      document.dispatchEvent(new CustomEvent("workbench:run"));
      return;
    }
    if (e.altKey && /^[1-9]$/.test(e.key)) {
      // the server numbers the views' links (data-key): a key without a view does nothing
      const link = document.querySelector(`.tabs a[data-key="${e.key}"]`);
      if (link) { e.preventDefault(); link.click(); }
      return;
    }
    if (!inField && e.key === "?" && dialog) {
      e.preventDefault();
      if (!dialog.open) dialog.showModal();
    }
  });
  // without a page script, Ctrl+Enter submits the page's main form
  document.addEventListener("workbench:run", () => {
    if (document.body.dataset.liveView) return;
    document.querySelector("form.run")?.requestSubmit();
  });
}

