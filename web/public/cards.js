// Playing cards drawn in SVG: rank and suit in both top corners (a fanned
// pile shows either edge), a big suit in the middle; suits are paths, not
// font glyphs, so no phone turns them into emoji. Backs are plain, red for
// Player 1's deck and blue for Player 2's, as the rules say.

import { svg, svgText } from './board-kit.js';

export const CW = 56; // card width, user units
export const CH = 80; // card height

const RED = 'rgb(199,20,26)';
const BLACK = 'rgb(20,20,26)';
const BACKS = ['rgb(176,38,42)', 'rgb(40,78,176)'];
const RANKS = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };
const SUIT_CHAR = { H: '♥', D: '♦', C: '♣', S: '♠' };

/** A card code ("TH") as people write it ("10♥"). */
export function cardName(code) {
  if (!code) return 'a face-down card';
  return (RANKS[code[0]] || code[0]) + SUIT_CHAR[code[1]] + '\uFE0E';
}

export const isRed = (code) => code[1] === 'H' || code[1] === 'D';

/** A suit symbol, `size` units wide, its top left at (x, y). */
export function suit(parent, s, x, y, size, fill) {
  const g = svg('g', { transform: `translate(${x} ${y}) scale(${size / 10})`, fill }, parent);
  if (s === 'H') svg('path', { d: 'M5 9.4C3.6 8.2 0 5.6 0 2.9 0 1.2 1.2 0 2.7 0 3.7 0 4.5 .6 5 1.5 5.5 .6 6.3 0 7.3 0 8.8 0 10 1.2 10 2.9 10 5.6 6.4 8.2 5 9.4Z' }, g);
  else if (s === 'D') svg('path', { d: 'M5 0 9 5 5 10 1 5Z' }, g);
  else if (s === 'S') svg('path', { d: 'M5 0C6.4 1.6 10 3.9 10 6.3 10 7.8 8.9 8.7 7.6 8.7 6.7 8.7 5.9 8.2 5.5 7.4 5.6 8.6 6.1 9.4 7 10H3C3.9 9.4 4.4 8.6 4.5 7.4 4.1 8.2 3.3 8.7 2.4 8.7 1.1 8.7 0 7.8 0 6.3 0 3.9 3.6 1.6 5 0Z' }, g);
  else {
    svg('circle', { cx: 5, cy: 2.6, r: 2.4 }, g);
    svg('circle', { cx: 2.5, cy: 6.1, r: 2.4 }, g);
    svg('circle', { cx: 7.5, cy: 6.1, r: 2.4 }, g);
    svg('path', { d: 'M4.4 5.5 3.3 10H6.7L5.6 5.5Z' }, g);
  }
  return g;
}

/**
 * Draws a card at (x, y): `code` face up ("9C"), or null for a back of
 * `deck` (0 or 1). Returns its group.
 */
export function drawCard(parent, code, x, y, deck = 0) {
  const g = svg('g', { transform: `translate(${x} ${y})` }, parent);
  if (!code) {
    svg('rect', { width: CW, height: CH, rx: 5, fill: BACKS[deck] || BACKS[0], stroke: 'rgb(245,245,240)', 'stroke-width': 2.5 }, g);
    svg('rect', { x: 6, y: 6, width: CW - 12, height: CH - 12, rx: 3, fill: 'none', stroke: 'rgba(255,255,255,0.45)', 'stroke-width': 1.2 }, g);
    return g;
  }
  const fill = isRed(code) ? RED : BLACK;
  const rank = RANKS[code[0]] || code[0];
  svg('rect', { width: CW, height: CH, rx: 5, fill: 'rgb(252,252,248)', stroke: 'rgb(120,120,120)', 'stroke-width': 1 }, g);
  const narrow = rank.length > 1 ? { 'letter-spacing': -1.5 } : {};
  svgText(rank, { x: 3, y: 17, 'font-size': 17, 'font-weight': 700, fill, ...narrow }, g);
  svgText(rank, { x: CW - 3, y: 17, 'font-size': 17, 'font-weight': 700, fill, 'text-anchor': 'end', ...narrow }, g);
  suit(g, code[1], 4, 21, 11, fill);
  suit(g, code[1], CW - 15, 21, 11, fill);
  suit(g, code[1], CW / 2 - 13, 40, 26, fill);
  return g;
}
