// Small helpers shared by the boards' modules: SVG and HTML element
// builders (attributes only: the page's CSP forbids inline styles in
// markup), the legal-move lookups the boards need, and what the small
// boards (Nim's, Mancala's) share: their parts, pointing at a piece by
// mouse or by finger, the last move's news, and a phone's width.

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

/**
 * A small board's parts, appended to `root`: a note above, the drawing
 * (an SVG image) and a caption under it, read out as it changes.
 */
export function boardParts(root) {
  const note = html('p', 'board-note');
  const drawing = svg('svg', { role: 'img' });
  const caption = html('p', 'board-caption');
  caption.setAttribute('aria-live', 'polite');
  root.append(note, drawing, caption);
  return { note, svg: drawing, caption };
}

/**
 * Pointing at a board's pieces, by mouse or by finger: a mouse's hover
 * shows what a piece would play and a click plays it; a finger or a pen
 * does not hover, so its first tap shows the piece (arms it) and a second
 * tap plays it. A piece is named by a key of the board's choosing:
 * `legal(key)` is its legal entry (null: it plays nothing), `same(a, b)`
 * whether two keys name one piece, `paint()` shows a change, `chose()`
 * runs on a tap or a play that counts (a board drops its keys' choice),
 * and `play(l)` plays the legal entry `l`.
 * @returns {{hover: any, armed: any, wire: (shape: Element, key: any) => void,
 *   update: (ply: number) => void}} `hover`, the piece under the mouse (if
 *   it plays); `armed`, the piece tapped once; `wire`, listens to a piece's
 *   shape; `update`, after each new state (at `ply`).
 */
export function pointing({ legal, same = (a, b) => a === b, paint, chose, play }) {
  let tapped = false; // the press before this click was a finger's or a pen's
  let shown = null; // the ply of the last state
  const p = {
    hover: null,
    armed: null,
    wire(shape, key) {
      shape.addEventListener('pointerenter', (e) => {
        if (isTouch(e)) return;
        p.hover = legal(key) ? key : null;
        paint();
      });
      shape.addEventListener('pointerleave', (e) => {
        if (isTouch(e)) return;
        if (p.hover != null && same(p.hover, key)) {
          p.hover = null;
          paint();
        }
      });
      shape.addEventListener('pointerdown', (e) => {
        tapped = isTouch(e);
      });
      shape.addEventListener('click', () => {
        const l = legal(key);
        if (!l) return;
        chose();
        if (tapped && !(p.armed != null && same(p.armed, key))) {
          p.armed = key;
          paint();
          return;
        }
        p.hover = null;
        p.armed = null;
        play(l);
      });
    },
    update(ply) {
      const moved = ply !== shown;
      shown = ply;
      p.hover = null;
      // A first tap stays shown while the position does (a seat's news changes nothing).
      if (p.armed != null && (moved || !legal(p.armed))) p.armed = null;
    },
  };
  return p;
}

/** The last move's news to draw with `state`: `fresh` if some came with it, else `kept` while the ply is the same. */
export const newsFor = (kept, state, fresh) => fresh || (kept && kept.ply === state.ply ? kept : null);

/** Phones' width, where the small boards draw bigger words or fewer stones a line. */
const narrow = matchMedia('(max-width: 520px)');
export const isNarrow = () => narrow.matches;

/** Runs `redraw` whenever the window crosses a phone's width; the function returned stops that. */
export function onNarrow(redraw) {
  narrow.addEventListener('change', redraw);
  return () => narrow.removeEventListener('change', redraw);
}
