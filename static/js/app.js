// JSON Workbench: the page bootstrap, and the face of the shared modules.
// Pages work as plain forms without JavaScript; the shared modules add live results, shortcuts,
// session-kept input, file open/drop, copy and download:
//   http.js      postJSON, postLarge (a long text in slices), debounce, latestOnly, latestAnswer, pause
//   dom.js       h, byIds, busyHeadline, toast, copyText, download, renderError, shortList, markInTextarea
//   text.js      plural, formatBytes, sizeLine, countLines
//   inputs.js    DocumentInput, LineGutter, persist, attachFile, readTextFile
//   stale.js     watchStale: a result that no longer belongs to its input is marked at once
//   redact.js    redaction preview (a diff against the original) before "copy redacted"
//   shortcuts.js Ctrl/⌘+Enter, Alt+1…5, ?; onRun (a view's submit and Ctrl/⌘+Enter)
// Plain ES modules, no dependencies, no build step; everything is re-exported here so a page
// may import from "./app.js" or from the module itself.

export * from "./http.js";
export * from "./dom.js";
export * from "./text.js";
export * from "./inputs.js";
export * from "./stale.js";
export { onRun } from "./shortcuts.js";
import { shortcuts } from "./shortcuts.js";

shortcuts();
