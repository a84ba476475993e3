// What both pictures of the Gate page (timeline.js, chain.js) draw with: SVG elements made like
// dom.js's h(), short labels, SVG groups that act as buttons, and the text equivalent beside a
// picture (a list for screen readers, tied to it by aria-describedby).

const NS = "http://www.w3.org/2000/svg";
let seq = 0;

/** An SVG element with attributes (null, undefined and false left out) and children. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** ``text`` cut to ``n`` characters with an ellipsis. */
export function short(text, n = 24) { text = String(text ?? ""); return text.length > n ? text.slice(0, n - 1) + "…" : text; }

/** Make an SVG element act as a button: focusable, Enter/Space, a label for screen readers. */
export function clickable(el, label, onActivate) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.classList.add("svg-button");
  el.addEventListener("click", (e) => { e.stopPropagation(); onActivate(); });
  el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onActivate(); } });
  return el;
}

/** The ordered list that says in words what ``svg`` shows (class ``className``), described-by. */
export function textEquivalent(svg, className) {
  const list = document.createElement("ol");
  list.className = className;
  list.id = `${className}-${++seq}`;
  svg.setAttribute("aria-describedby", list.id);
  return list;
}

/** The picture as a <figure>: its caption, the SVG in a scrolling box (a hint above it while
 *  the picture is wider than the box: it scrolls, it is never shrunk), and the text equivalent
 *  folded under "<what> as text". */
export function figure(id, caption, svg, list, what) {
  const fig = document.createElement("figure");
  fig.className = id;
  fig.id = id;
  const cap = document.createElement("figcaption");
  cap.textContent = caption;
  const scroll = document.createElement("div");
  scroll.className = "svg-scroll";
  scroll.append(svg);
  const details = document.createElement("details");
  details.className = "svg-text";
  const sum = document.createElement("summary");
  sum.textContent = `${what} as text`;
  details.append(sum, list);
  const hint = document.createElement("p");
  hint.className = "svg-hint";
  hint.hidden = true;
  hint.textContent = `↔ Wider than this box: scroll the picture sideways, or open "${what} as text" below.`;
  const fits = () => { hint.hidden = scroll.scrollWidth <= scroll.clientWidth + 1; };
  new ResizeObserver(fits).observe(scroll);
  fig.append(cap, hint, scroll, details);
  return fig;
}
