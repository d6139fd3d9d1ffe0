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

/** An SVG element with attributes and, if given, words (by textContent). */
export function el(tag, attrs, text) {
  const e = svg(tag, attrs);
  if (text != null) e.textContent = text;
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


// Help names hover and keys only where a pointer hovers and a keyboard is
// near: the last press decides (a finger or a pen: a touch screen), before
// any the media query '(hover: none)' does.
let lastTouch = null;
export const isTouch = (e) => e.pointerType === 'touch' || e.pointerType === 'pen';
document.addEventListener('pointerdown', (e) => (lastTouch = isTouch(e)), { capture: true, passive: true });
// A key typed into a field may be a phone's own: not counted.
document.addEventListener('keydown', (e) => typing(e) || e.key === 'Unidentified' || (lastTouch = false), { capture: true, passive: true });
/** Whether help should speak of taps rather than of hover, clicks and keys. */
export const touchInput = () => lastTouch ?? matchMedia('(hover: none)').matches;

/** Cuts `text` with an ellipsis (`tail` kept after it) until the SVG text `t` fits in `room` units. */
export function fitText(t, text, room, tail = '') {
  t.textContent = text + tail;
  for (let n = text.length - 1; n > 0 && t.getComputedTextLength() > room; n--) t.textContent = text.slice(0, n).trimEnd() + '…' + tail;
}
