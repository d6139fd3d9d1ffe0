// Small helpers shared by the Robot board and Russian Bank modules: SVG and
// HTML element builders (attributes only: the page's CSP forbids inline
// styles in markup) and the legal-move lookups both boards need.

export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes, appended to `parent` if given.
 * @param {string} tag @param {Record<string, any>} [attrs] @param {Element} [parent]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, parent) {
  const e = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}

/** An SVG <text> whose words go in by textContent. */
export function svgText(text, attrs, parent) {
  const t = svg('text', attrs, parent);
  t.textContent = text;
  return t;
}

/**
 * An HTML element with a class and text (by textContent only).
 * @param {string} tag @param {string} [cls] @param {string} [text] @param {Element} [parent]
 * @returns {HTMLElement}
 */
export function html(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** A button; `on` runs on click. */
export function button(label, cls, on, parent) {
  const b = /** @type {HTMLButtonElement} */ (html('button', cls, label, parent));
  b.type = 'button';
  b.addEventListener('click', on);
  return b;
}

/** The legal entry whose move is `move` (compared as JSON), or null. */
export function findLegal(state, move) {
  const key = JSON.stringify(move);
  for (const l of state?.legal || []) if (JSON.stringify(l.move) === key) return l;
  return null;
}

/** Removes every child of `e`. */
export function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

/** The boards' own stylesheet, linked once (CSP allows 'self' sheets). */
export function linkStyles() {
  if (document.querySelector('link[href$="boards.css"]')) return;
  const l = document.createElement('link');
  l.rel = 'stylesheet';
  l.href = 'boards.css';
  document.head.appendChild(l);
}

/** Whether a key event comes from a text field (the board leaves those alone). */
export function typing(ev) {
  const t = ev.target;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
}
