// tabula's web page: the lobby, a table around a game's board, and the
// connection. Everything it knows comes from the protocol (docs/protocol.md).
// Names people chose reach the DOM through textContent only.

import { Net, errorWords } from './net.js';

/** The board module of each game (protocol game name -> board-<slug>.js). */
const BOARDS = { Nim: 'nim', Mancala: 'mancala', Robots: 'robots', RussianBank: 'bank' };

/** The window's seat colours (src/app/seat_colors.rs), seat index from 0. */
const SEAT_RGB = [
  [86, 180, 233], [230, 159, 0], [0, 158, 115], [240, 228, 66],
  [213, 94, 0], [204, 121, 167], [70, 140, 220], [225, 225, 225],
];
export function seatColor(i) {
  const [r, g, b] = SEAT_RGB[((i % 8) + 8) % 8];
  return `rgb(${r}, ${g}, ${b})`;
}
/** Seat 2 in words: "second, in orange". */
function seatInWords(seat) {
  const nth = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'][seat - 1];
  const colour = ['sky blue', 'orange', 'green', 'yellow', 'vermilion', 'purple', 'blue', 'grey'][seat - 1];
  return nth ? `${nth}, in ${colour}` : `seat ${seat}`;
}

/** The computer players a stranger understands, weakest first. */
const LADDER = ['newcomer', 'beginner', 'casual', 'strong', 'best'];

const LOBBY_REFRESH_MS = 5000;
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- storage

const store = {
  name() {
    return (localStorage.getItem('tabula.name') || '').trim();
  },
  setName(name) {
    localStorage.setItem('tabula.name', name);
  },
  /**
   * The seat saved for a table: `{seat, token}` is the one sat at last;
   * `tokens` keeps each seat's token, so two tabs of one browser may sit at
   * both seats of a table (a person trying it out with themself).
   * @returns {{seat: number, token: string, tokens?: Object<string,string>, game?: string, level?: string}|null}
   */
  seatOf(table) {
    try {
      const v = JSON.parse(localStorage.getItem(`tabula.seat.${table}`) || 'null');
      return v && typeof v.token === 'string' ? v : null;
    } catch {
      return null;
    }
  },
  /** The token for `seat` (or the last seat sat at when `seat` is absent). */
  token(table, seat) {
    const v = this.seatOf(table);
    if (!v) return null;
    if (seat == null) return { seat: v.seat, token: v.token };
    if (v.tokens && v.tokens[seat]) return { seat, token: v.tokens[seat] };
    return v.seat === seat ? { seat, token: v.token } : null;
  },
  saveSeat(table, seat, token, extra = {}) {
    const old = this.seatOf(table) || {};
    const tokens = { ...(old.tokens || {}), [seat]: token };
    const v = { ...old, ...extra, seat, token, tokens };
    localStorage.setItem(`tabula.seat.${table}`, JSON.stringify(v));
  },
  /** Adds what the lobby's "Your seats" says of a table (game, level). */
  describe(table, extra) {
    const v = this.seatOf(table);
    if (v && Object.keys(extra).some((k) => v[k] !== extra[k])) {
      localStorage.setItem(`tabula.seat.${table}`, JSON.stringify({ ...v, ...extra }));
    }
  },
  forgetSeat(table, seat) {
    const v = this.seatOf(table);
    if (!v) return;
    const tokens = { ...(v.tokens || {}) };
    delete tokens[seat];
    const left = Object.keys(tokens);
    if (!left.length) {
      localStorage.removeItem(`tabula.seat.${table}`);
      return;
    }
    const s = v.seat === seat ? Number(left[0]) : v.seat;
    localStorage.setItem(`tabula.seat.${table}`, JSON.stringify({ ...v, seat: s, token: tokens[s], tokens }));
  },
  forgetTable(table) {
    localStorage.removeItem(`tabula.seat.${table}`);
  },
  tables() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith('tabula.seat.')) {
        const table = k.slice('tabula.seat.'.length);
        const v = this.seatOf(table);
        if (v) out.push({ table, ...v });
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- DOM help

/**
 * Makes an element. props: class, text (textContent), title, type, value,
 * href, attrs (plain attributes), on (event handlers). No HTML strings.
 */
function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'attrs') for (const [a, av] of Object.entries(v)) el.setAttribute(a, av);
    else el[k] = v;
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function show(el, yes) {
  el.hidden = !yes;
}

function swatch(i) {
  const s = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
  s.style.background = seatColor(i);
  return s;
}

// ---------------------------------------------------------------- connection

const net = new Net(() => store.name());
let games = []; // welcome.games
let levels = null; // levels answer: {levels, agents}

function renderStatus() {
  const st = net.status;
  const el = $('conn');
  el.className = `conn ${st.state}`;
  let text = 'Connecting…';
  if (st.state === 'connected') text = 'Connected';
  else if (st.state === 'halted') text = `The server stopped taking moves${st.message ? `: ${st.message}` : ''}`;
  else if (st.state === 'lost') {
    const s = Math.max(0, Math.ceil((st.retryAt - Date.now()) / 1000));
    text = s > 0 ? `Connection lost: trying again in ${s} s…` : 'Connection lost: trying again…';
  }
  el.textContent = text;
  show($('conn-retry'), st.state === 'lost');
}

net.on('status', renderStatus);
setInterval(() => {
  if (net.status.state === 'lost') renderStatus();
}, 250);
$('conn-retry').addEventListener('click', () => net.retryNow());

net.on('ready', async (welcome) => {
  games = welcome.games || [];
  if (T) attach();
  else if (route().kind === 'lobby') refreshLobby();
  if (!levels) {
    try {
      levels = await net.request({ type: 'levels' });
      fillNewForm();
    } catch (e) {
      lobbyError(e);
    }
  }
});

net.on('error', (msg) => {
  // An error that answers no request of ours (a refusal without an id).
  banner(errorWords({ code: msg.code, serverMessage: msg.message }));
});

/** News (leaving a table) or an error: it stays until the next action. */
function banner(text) {
  const b = $('banner');
  b.textContent = text || '';
  show(b, !!text);
}

document.addEventListener('click', (e) => {
  if (e.target instanceof Element && e.target.closest('button, a, summary, select, input')) banner('');
}, true);
document.addEventListener('submit', () => banner(''), true);

// ---------------------------------------------------------------- name

function renderName() {
  const name = store.name();
  $('me-name').textContent = name || '(no name yet)';
  $('me-label').textContent = name ? 'Playing as' : 'No name yet';
  show($('me-name'), !!name);
  $('me-edit').textContent = name ? 'Change name' : 'Choose a name';
}

let afterName = null; // what to do once a name is saved (join a table)

function askName(why, then) {
  $('name-why').textContent = why || 'What is your name? Others at the table see it.';
  $('name-input').value = store.name();
  afterName = then || null;
  show($('name-box'), true);
  show($('name-cancel'), !!store.name() && !then);
  $('name-input').focus();
}

$('name-box').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('name-input').value.trim().slice(0, 40);
  if (!name) return;
  store.setName(name);
  renderName();
  show($('name-box'), false);
  const then = afterName;
  afterName = null;
  if (then) then();
});
$('name-cancel').addEventListener('click', () => {
  afterName = null;
  show($('name-box'), false);
});

$('me-edit').addEventListener('click', () => askName('Your name (others see it from the next table you join):'));

// ---------------------------------------------------------------- routes

/** @returns {{kind:'lobby'}|{kind:'table', id:string, seat:number|null}|{kind:'watch', id:string}} */
function route() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ''));
  const valid = (id) => id && /^[A-Za-z0-9_-]{1,64}$/.test(id);
  if (valid(p.get('watch'))) return { kind: 'watch', id: p.get('watch') };
  if (valid(p.get('table'))) {
    const seat = Number(p.get('seat'));
    return { kind: 'table', id: p.get('table'), seat: Number.isInteger(seat) && seat > 0 ? seat : null };
  }
  return { kind: 'lobby' };
}

function onRoute() {
  const r = route();
  if (r.kind === 'lobby') {
    if (T) closeTable(true);
    showLobby();
    return;
  }
  // Already there (the hash was set after joining, or by a rematch).
  if (T && T.id === r.id && (r.kind === 'watch') === (T.role === 'watch') && (r.kind === 'watch' || r.seat == null || r.seat === T.seat)) {
    showTable();
    return;
  }
  if (T) closeTable(false);
  // News of the last table is old here; a spectator needs no name (and a
  // seat asks for one itself if it must).
  banner('');
  afterName = null;
  show($('name-box'), false);
  openTable(r);
}

window.addEventListener('hashchange', onRoute);

function setHash(hash) {
  // Without a hashchange: the table shown already is the one named.
  history.replaceState(null, '', hash);
}

// ---------------------------------------------------------------- lobby

let lobbyTimer = null;

function showLobby() {
  show($('table'), false);
  show($('lobby'), true);
  document.title = 'tabula';
  renderMine();
  refreshLobby();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => {
    if (!$('lobby').hidden) refreshLobby();
  }, LOBBY_REFRESH_MS);
  if (!store.name()) askName();
}

/** An error of the lobby's; a refresh's own is put away by the next refresh. */
function lobbyError(e, byRefresh = false) {
  const el = $('lobby-error');
  el.textContent = e ? errorWords(e) : '';
  el.dataset.refresh = byRefresh;
  show(el, !!e);
}

async function refreshLobby() {
  if (!net.ready || $('lobby').hidden) return;
  try {
    const ans = await net.request({ type: 'tables' });
    renderTables(ans.tables || []);
    if ($('lobby-error').dataset.refresh === 'true') lobbyError(null);
  } catch (e) {
    if (e.code !== 'connection') lobbyError(e, true);
  }
}
$('tables-refresh').addEventListener('click', refreshLobby);

function gameTitle(game) {
  const g = games.find((x) => x.game === game);
  return g ? g.title : game;
}

function seatWords(s) {
  if (s.kind === 'agent') return `${s.name || 'agent'} (computer)`;
  if (!s.taken) return 'open';
  return s.name || `Player ${s.seat}`;
}

let shownTables = '';

function renderTables(tables) {
  // Unchanged, the list stays as it is (and keeps the keyboard's focus).
  const json = JSON.stringify(tables);
  if (json === shownTables) return;
  shownTables = json;
  const list = $('tables-list');
  list.replaceChildren();
  show($('tables-empty'), tables.length === 0);
  for (const t of tables) {
    const seats = h('ul', { class: 'mini-seats' });
    for (const s of t.seats) {
      const li = h('li', {}, swatch(s.seat - 1), h('span', { text: seatWords(s) }));
      if (s.kind === 'person' && s.taken) {
        li.append(h('span', { class: s.connected ? 'dot on' : 'dot', title: s.connected ? 'connected' : 'away', text: s.connected ? ' ●' : ' (away)' }));
      }
      seats.append(li);
    }
    const actions = h('div', { class: 'row-actions' });
    if (t.open > 0) actions.append(h('a', { class: 'button primary', href: `#table=${t.table}`, text: 'Join' }));
    if (t.spectators) actions.append(h('a', { class: 'button', href: `#watch=${t.table}`, text: 'Watch' }));
    list.append(
      h('li', { class: 'table-item' },
        h('div', { class: 'table-name' },
          h('b', { text: gameTitle(t.game) }), ' · ', h('span', { text: t.level })),
        seats,
        h('div', { class: 'dim', text: `${t.open} open seat${t.open === 1 ? '' : 's'} · ${t.ply} move${t.ply === 1 ? '' : 's'} played` }),
        actions),
    );
  }
}

function renderMine() {
  // Games still on first; finished ones say so.
  const mine = store.tables().sort((a, b) => !!a.over - !!b.over);
  const list = $('mine-list');
  list.replaceChildren();
  show($('mine-card'), mine.length > 0);
  for (const m of mine) {
    const label = m.game ? `${gameTitle(m.game)}${m.level ? ` · ${m.level}` : ''}` : m.table;
    const name = h('div', { class: 'table-name' }, h('span', { text: label }), ' ', h('span', { class: 'dim nowrap', text: `(seat ${m.seat})` }));
    if (m.over) name.append(' ', h('span', { class: 'tag', text: 'finished' }));
    list.append(
      h('li', { class: m.over ? 'table-item over' : 'table-item' },
        name,
        h('div', { class: 'row-actions' },
          h('a', { class: 'button', href: `#table=${m.table}&seat=${m.seat}`, text: m.over ? 'See how it ended' : 'Back to the table' }),
          h('button', { type: 'button', text: 'Forget', on: { click: () => { store.forgetTable(m.table); renderMine(); } } }))),
    );
  }
}

// The new-table form: game, then level, then who plays each other seat.

function fillNewForm() {
  if (!levels) return;
  const gameSel = $('new-game');
  const had = gameSel.value;
  gameSel.replaceChildren();
  const names = games.length ? games.map((g) => g.game) : [...new Set(levels.levels.map((l) => l.game))];
  for (const g of names) {
    if (!levels.levels.some((l) => l.game === g)) continue;
    gameSel.append(h('option', { value: g, text: gameTitle(g) }));
  }
  if (had) gameSel.value = had;
  fillLevels();
}

function fillLevels() {
  const game = $('new-game').value;
  const sel = $('new-level');
  sel.replaceChildren();
  for (const l of levels.levels.filter((x) => x.game === game)) {
    sel.append(h('option', { value: l.level, text: l.name }));
  }
  fillSeats();
}

function chosenLevel() {
  return levels && levels.levels.find((l) => l.level === $('new-level').value);
}

function fillSeats() {
  const level = chosenLevel();
  const box = $('new-seats');
  box.querySelectorAll('.seat-pick').forEach((n) => n.remove());
  $('new-level-desc').textContent = level ? level.description : '';
  if (!level) return;
  const agents = (levels.agents && levels.agents[level.game]) || [];
  const ladder = LADDER.map((n) => agents.find((a) => a.name === n)).filter(Boolean);
  const others = agents.filter((a) => !LADDER.includes(a.name));
  const named = (n) => agents.find((a) => a.name === n);
  const def = named('beginner') || named('newcomer') || ladder[0] || agents[0];
  box.append(h('div', { class: 'seat-pick' }, swatch(0), h('span', { text: 'Seat 1: you' })));
  for (let seat = 2; seat <= level.seats; seat++) {
    const id = `new-seat-${seat}`;
    const sel = h('select', { id, class: 'seat-sel' });
    sel.append(h('option', { value: 'person', text: 'A friend (invite by link)' }));
    const option = (a) => h('option', { value: a.name, text: `Computer: ${a.name}` });
    if (ladder.length && others.length) {
      sel.append(
        h('optgroup', { label: 'Computer, weakest first' }, ladder.map(option)),
        h('optgroup', { label: 'Other agents' }, others.map(option)),
      );
    } else {
      for (const a of [...ladder, ...others]) sel.append(option(a));
    }
    if (def) sel.value = def.name;
    const plays = h('span', { class: 'dim plays' });
    const say = () => {
      const a = agents.find((x) => x.name === sel.value);
      plays.textContent = a ? a.plays : 'gets a link to this seat';
    };
    sel.addEventListener('change', say);
    say();
    box.append(
      h('div', { class: 'seat-pick' }, swatch(seat - 1), h('label', { attrs: { for: id }, text: `Seat ${seat}:` }), sel, plays),
    );
  }
  show($('new-clock-row'), level.seats === 2);
}

$('new-game').addEventListener('change', fillLevels);
$('new-level').addEventListener('change', fillSeats);

$('new-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const level = chosenLevel();
  if (!level) return;
  if (!store.name()) {
    askName('Say your name first: others at the table see it.');
    return;
  }
  const seats = ['person'];
  for (let seat = 2; seat <= level.seats; seat++) seats.push($(`new-seat-${seat}`).value);
  const req = {
    type: 'create',
    level: level.level,
    seats,
    spectators: $('new-spectators').checked,
    listed: $('new-listed').checked,
  };
  if (level.seats === 2 && $('new-clock').checked) {
    const minutes = Math.max(1, Math.min(180, Number($('new-minutes').value) || 5));
    const increment = Math.max(0, Math.min(60, Number($('new-inc').value) || 0));
    req.clock = { minutes, increment };
  }
  const button = $('new-create');
  button.disabled = true;
  lobbyError(null);
  try {
    const created = await net.request(req);
    lobbyError(null);
    location.hash = `#table=${created.table}&seat=1`;
  } catch (err) {
    lobbyError(err);
  } finally {
    button.disabled = false;
  }
});

// ---------------------------------------------------------------- the table

/**
 * The table this tab shows. role "seat": this tab plays `seat` (once
 * joined); "watch": a spectator.
 * @type {null|{id: string, role: 'seat'|'watch', want: number|null, seat: number|null,
 *   st: any, attached: boolean, displaced: boolean, board: any, boardGame: string|null,
 *   clockAt: number, rematchBy: Set<number>, rematchAsked: boolean, note: string, resignAsk: boolean,
 *   needName: boolean}}
 */
let T = null;

/** A table's state before anything of it is shown: no state heard, no board yet. */
function newTable({ id, role, want, seat = null, attached = false }) {
  return {
    id,
    role,
    want,
    seat,
    st: null,
    attached,
    displaced: false,
    board: null,
    boardGame: null,
    clockAt: 0,
    rematchBy: new Set(),
    rematchAsked: false,
    note: null,
    resignAsk: false,
    sending: false,
  };
}

function openTable(r) {
  const watch = r.kind === 'watch';
  T = newTable({ id: r.id, role: watch ? 'watch' : 'seat', want: watch ? null : r.seat });
  $('board-root').replaceChildren();
  $('t-log').replaceChildren();
  freshLegalBox();
  showTable();
  renderTable();
  if (net.ready) attach();
}

function showTable() {
  show($('lobby'), false);
  show($('table'), true);
  clearInterval(lobbyTimer);
}

function closeTable(sayLeft) {
  const t = T;
  T = null;
  if (t.board) {
    try {
      t.board.unmount();
    } catch (e) {
      console.error(e);
    }
  }
  $('board-root').replaceChildren();
  delete $('table').dataset.ply;
  if (net.ready) net.request({ type: 'leave', table: t.id }).catch(() => {});
  if (sayLeft && t.role === 'seat' && t.seat && t.st && !t.st.result) {
    banner('You left the table. The game goes on at the server and your seat stays yours: come back from "Your seats".');
  }
}

/** Sits at (or watches) T's table: on opening it and after every reconnect. */
async function attach() {
  const t = T;
  // A seat played from another window now stays there until asked back.
  if (!t || t.displaced) return;
  tableError(null);
  if (t.role === 'watch') {
    try {
      await net.request({ type: 'watch', table: t.id });
    } catch (e) {
      if (T === t) failAttach(e);
    }
    return;
  }
  // A seat this browser holds comes back by its token.
  const saved = store.token(t.id, t.seat ?? t.want);
  if (saved) {
    try {
      const joined = await net.request({ type: 'resume', token: saved.token });
      if (T !== t) return;
      seated(t, joined);
      return;
    } catch (e) {
      if (T !== t) return;
      if (e.code !== 'bad_token') {
        failAttach(e);
        return;
      }
      store.forgetSeat(t.id, saved.seat);
      if (t.seat != null) {
        failAttach(e);
        return;
      }
    }
  }
  if (!store.name()) {
    t.needName = true;
    renderTable();
    const invited = t.want != null;
    askName(`${invited ? 'You are invited to a table' : 'You are joining a table'}: say your name to sit down. The others there see it.`, () => {
      if (T === t) {
        t.needName = false;
        attach();
      }
    });
    lookUpInvite(t);
    return;
  }
  try {
    const req = { type: 'join', table: t.id, name: store.name() };
    if (t.want) req.seat = t.want;
    const joined = await net.request(req);
    if (T !== t) return;
    seated(t, joined);
  } catch (e) {
    if (T === t) failAttach(e);
  }
}

/** What the lobby's list says of the table (if it is listed). */
async function lookUpInvite(t) {
  try {
    const ans = await net.request({ type: 'tables' });
    const found = (ans.tables || []).find((x) => x.table === t.id);
    if (T === t && found && !t.st) {
      t.invite = found;
      renderTable();
    }
  } catch {
    // Not now: the table says more once one sits down.
  }
}

function seated(t, joined) {
  t.seat = joined.seat;
  t.displaced = false;
  t.attached = true;
  store.saveSeat(t.id, joined.seat, joined.token, t.st ? { game: t.st.game, level: t.st.level && t.st.level.name } : {});
  setHash(`#table=${t.id}&seat=${joined.seat}`);
  renderTable();
}

function failAttach(e) {
  T.attached = false;
  T.failed = e;
  renderTable();
}

function tableError(e) {
  const el = $('t-error');
  el.textContent = e ? (typeof e === 'string' ? e : errorWords(e)) : '';
  show(el, !!e);
}

// Messages about the table.

function mine(msg) {
  return T && msg.table === T.id;
}

net.on('state', (msg) => {
  if (!mine(msg)) return;
  // A tab holding no seat here hears the spectator's state only.
  if (T.role === 'seat' && T.seat != null && msg.seat != null && msg.seat !== T.seat) return;
  T.st = { ...msg, moves: msg.moves || [], legal: msg.legal || [] };
  $('t-log').replaceChildren(); // rebuilt whole: a take-back may have changed it
  T.clockAt = performance.now();
  T.attached = true;
  T.failed = null;
  T.sending = false;
  if (T.role === 'seat' && T.seat) store.describe(T.id, { game: msg.game, level: msg.level && msg.level.name });
  renderTable();
  updateBoard(null);
});

net.on('moved', (msg) => {
  if (!mine(msg) || !T.st) return;
  const st = T.st;
  if (msg.ply <= st.ply) return; // heard already (a second copy)
  st.ply = msg.ply;
  st.to_move = msg.to_move;
  st.view = msg.view;
  st.legal = msg.legal || [];
  st.clock = msg.clock;
  st.result = msg.result;
  st.take_back = null;
  st.moves.push({ seat: msg.seat, move: msg.move, says: msg.says });
  if (moveEndsNote(msg.seat) || msg.result) T.note = null;
  T.clockAt = performance.now();
  T.sending = false;
  if (msg.seat === T.seat) tableError(null);
  renderTable();
  updateBoard(msg);
});

net.on('seats', (msg) => {
  if (!mine(msg) || !T.st) return;
  T.st.seats = msg.seats;
  renderTable();
  updateBoard(null);
});

net.on('ended', (msg) => {
  if (!mine(msg) || !T.st) return;
  T.st.result = msg.result;
  T.st.legal = [];
  T.st.take_back = null;
  T.note = null; // the end says the news now
  if (T.st.clock) T.st.clock = { ...T.st.clock, remaining_ms: currentClock(), running: null };
  T.clockAt = performance.now();
  renderTable();
  updateBoard(null);
});

net.on('take_back_asked', (msg) => {
  if (!mine(msg) || !T.st) return;
  T.st.take_back = { by: msg.by, to_ply: msg.to_ply };
  renderTable();
});

/**
 * A notice of news at the table (a take-back, a rematch): it goes at the
 * end, on leaving, and at one's own next move, or another's once it has
 * been up 5 s (a computer's instant reply does not take it away unread).
 */
function setNote(text, seat = null) {
  T.note = { text, seat, at: performance.now() };
}

function moveEndsNote(seat) {
  return T.note && ((T.role === 'seat' && seat === T.seat) || performance.now() - T.note.at >= 5000);
}

net.on('take_back_declined', (msg) => {
  if (!mine(msg) || !T.st) return;
  T.st.take_back = null;
  setNote(msg.by === T.seat ? 'You declined the take-back.' : `${nameOf(msg.by)} declined the take-back.`);
  renderTable();
});

net.on('taken_back', (msg) => {
  if (!mine(msg)) return;
  setNote(`Moves taken back: the game is at move ${msg.ply + 1} again.`);
  // The log is rebuilt from the state that follows.
});

net.on('rematch_asked', (msg) => {
  if (!mine(msg)) return;
  T.rematchBy.add(msg.by);
  renderTable();
});

net.on('rematch', (msg) => {
  if (!mine(msg)) return;
  // Follow into the new table: the server already counts us there and a
  // state for it follows; keep the new seat's token.
  const old = T;
  if (old.board) old.board.unmount();
  $('board-root').replaceChildren();
  T = null;
  openTableQuiet(msg);
  if (msg.token) {
    store.saveSeat(msg.new_table, msg.seat, msg.token, old.st ? { game: old.st.game, level: old.st.level && old.st.level.name } : {});
    setHash(`#table=${msg.new_table}&seat=${msg.seat}`);
  } else {
    setHash(`#watch=${msg.new_table}`);
  }
});

/** The table state for a rematch's new table, without asking the server. */
function openTableQuiet(msg) {
  const seat = msg.seat ?? null;
  T = newTable({ id: msg.new_table, role: msg.token ? 'seat' : 'watch', want: seat, seat, attached: true });
  if (msg.token && msg.seat != null) setNote(`A new game: you now play ${seatInWords(msg.seat)}.`, msg.seat);
  else setNote('A new game: the players moved one seat round.');
  $('t-log').replaceChildren();
  freshLegalBox();
  renderTable();
}

/** A new table's list of moves opens (or not) by its own length again. */
function freshLegalBox() {
  const box = $('t-legal-box');
  delete box.dataset.touched;
  delete box.dataset.auto;
}

net.on('displaced', (msg) => {
  if (!mine(msg) || msg.seat !== T.seat) return;
  T.displaced = true;
  T.attached = false;
  renderTable();
  updateBoard(null);
});

// ---------------------------------------------------------------- board

async function updateBoard(news) {
  const t = T;
  if (!t || !t.st) return;
  const game = t.st.game;
  if (t.boardGame !== game) {
    t.boardGame = game;
    t.boardLoad = loadBoard(game).then((mod) => {
      if (T !== t) return;
      const root = $('board-root');
      root.replaceChildren();
      if (!mod) {
        root.append(h('p', { class: 'dim no-board', text: 'This page has no board for this game: play from the list of your moves.' }));
        return;
      }
      const holder = h('div', { class: `board board-${BOARDS[game]}` });
      root.append(holder);
      try {
        t.board = mod.mount(holder, { play, seatColor });
      } catch (e) {
        console.error(e);
        root.replaceChildren(h('p', { class: 'error', text: 'The board could not be drawn: play from the list of your moves.' }));
      }
    });
  }
  await t.boardLoad;
  if (T !== t || !t.board) return;
  try {
    t.board.update(boardState(), news);
  } catch (e) {
    console.error(e);
  }
}

async function loadBoard(game) {
  const slug = BOARDS[game];
  if (!slug) return null;
  try {
    return await import(`./board-${slug}.js`);
  } catch (e) {
    console.error(e);
    return null;
  }
}

function boardState() {
  const st = T.st;
  const playing = T.role === 'seat' && !T.displaced && !T.sending;
  return {
    game: st.game,
    seat: T.role === 'seat' ? T.seat : null,
    view: st.view,
    legal: playing ? st.legal : [],
    toMove: st.to_move,
    ply: st.ply,
    level: st.level,
    result: st.result,
    seats: st.seats,
  };
}

/** Sends a move (one of state.legal's) for the position shown. */
async function play(move) {
  const t = T;
  if (!t || !t.st || t.sending || t.role !== 'seat' || t.displaced) return;
  const key = JSON.stringify(move);
  const entry = t.st.legal.find((l) => JSON.stringify(l.move) === key);
  if (!entry) return;
  tableError(null);
  t.sending = true;
  renderLegal();
  updateBoard(null);
  try {
    await net.request({ type: 'move', table: t.id, seat: t.seat, move: entry.move, ply: t.st.ply });
  } catch (e) {
    if (T !== t) return;
    t.sending = false;
    // A stale move is a race, not a fault: the news on its way says more.
    if (e.code !== 'stale') tableError(e);
    renderLegal();
    updateBoard(null);
  }
}

// Keys go to the board unless a field or a button has them.
document.addEventListener('keydown', (e) => {
  if (!T || !T.board || $('table').hidden) return;
  if (e.ctrlKey || e.altKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || '';
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag)) return;
  if ((tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY') && (e.key === 'Enter' || e.key === ' ')) return;
  try {
    if (T.board.key(e)) e.preventDefault();
  } catch (err) {
    console.error(err);
  }
});

// ---------------------------------------------------------------- panel

function seatInfo(n) {
  return T && T.st && T.st.seats ? T.st.seats.find((s) => s.seat === n) : null;
}

/** A seat in words for sentences: "Ann", "greedy (computer)", "Player 2". */
function nameOf(n) {
  const s = seatInfo(n);
  if (!s) return `Player ${n}`;
  if (s.kind === 'agent') return `${s.name || 'the computer'} (computer)`;
  return s.name || `Player ${n}`;
}

function openSeats() {
  return T.st ? T.st.seats.filter((s) => !s.taken) : [];
}

function resultWords(result) {
  const me = T.role === 'seat' ? T.seat : null;
  const winner = result.winner;
  const who = (n) => (n === me ? 'you' : nameOf(n));
  let head;
  if (winner == null) head = 'Draw';
  else if (winner === me) head = 'You won';
  else if (me != null && T.st.seats.length === 2) head = `You lost: ${nameOf(winner)} won`;
  else head = `${nameOf(winner)} won`;
  const by = result.by;
  const scores = result.scores || [];
  // A loss by resigning or by time says why alone ("You lost: you resigned.").
  const short = me != null && winner != null && winner !== me ? 'You lost' : head;
  if (result.reason === 'resigned') return `${short}: ${by === me ? 'you' : nameOf(by)} resigned.`;
  if (result.reason === 'time') return `${short}: ${by === me ? 'your' : `${nameOf(by)}'s`} time ran out.`;
  if (T.st.game === 'Nim' && T.st.seats.length === 2) {
    // Who took the last stone: the winner in normal play, else the loser.
    const misere = T.st.view && T.st.view.ending === 'Misere';
    const took = misere ? 3 - winner : winner;
    if (winner != null) {
      const nimHead = winner === me ? 'You won' : me != null ? 'You lost' : `${nameOf(winner)} won`;
      return `${nimHead}: ${who(took)} took the last stone.`;
    }
  }
  if (T.st.game === 'RussianBank' && winner != null && scores.length) return `${head} with ${scores[winner - 1]} points.`;
  if (scores.length === 2) {
    const [a, b] = winner === 2 ? [scores[1], scores[0]] : scores;
    return `${head}, ${a} to ${b}.`;
  }
  if (scores.length) return `${head}: ${scores.join(', ')}.`;
  if (winner == null) return `${head}: the game reached its move limit.`;
  return `${head}.`;
}

/** The table's title while its state is still to come. */
function titleBeforeState() {
  if (T.role === 'watch') return 'Watching a table';
  if (T.needName && T.invite) return `${T.want != null ? 'Invited to' : 'Joining'} ${gameTitle(T.invite.game)} · ${T.invite.level}`;
  if (T.needName) return T.want != null ? 'You are invited to a table' : 'You are joining a table';
  return 'A table';
}

/** Who is at a listed table: "At the table: Ann (seat 1). Seat 2 waits for you." */
function inviteWords(t) {
  const there = t.seats.filter((s) => s.taken).map((s) => `${seatWords(s)} (seat ${s.seat}${s.kind === 'person' && !s.connected ? ', away' : ''})`);
  const open = t.seats.filter((s) => !s.taken).map((s) => s.seat);
  return [
    there.length ? `At the table: ${there.join(', ')}.` : '',
    open.includes(T.want) ? `Seat ${T.want} waits for you.` : open.length ? `Open: seat ${open.join(' and ')}.` : '',
  ].filter(Boolean).join(' ');
}

function turnWords() {
  const st = T.st;
  if (!st) {
    if (T.failed) return '';
    if (T.needName) {
      const ask = 'Say your name above to sit down.';
      return T.invite ? `${inviteWords(T.invite)} ${ask}` : ask;
    }
    return net.ready ? 'Joining the table…' : 'Waiting for the connection…';
  }
  if (st.result) return resultWords(st.result);
  const open = openSeats();
  if (open.length) {
    const which = open.map((s) => s.seat).join(' and ');
    return `Waiting for a player at seat ${which}: the game begins once every seat is taken.`;
  }
  if (T.role === 'seat' && st.to_move === T.seat) return T.displaced ? 'Your move (played from another window now).' : 'Your move.';
  const s = seatInfo(st.to_move);
  if (s && s.kind === 'agent') return `${nameOf(st.to_move)} is thinking…`;
  return `${nameOf(st.to_move)} to move.`;
}

function renderTable() {
  if (!T) return;
  const st = T.st;
  const lv = st && st.level;
  // The ply shown, for tests to wait on (and a table's id).
  if (st) $('table').dataset.ply = String(st.ply);
  else delete $('table').dataset.ply;
  $('table').dataset.table = T.id;
  $('t-title').textContent = st ? `${gameTitle(st.game)} · ${lv ? lv.name : ''}` : titleBeforeState();
  document.title = st ? `${lv ? lv.name : gameTitle(st.game)} · tabula` : 'tabula';
  $('t-summary').replaceChildren(...(lv && lv.summary ? lv.summary : []).map((line) => h('li', { text: line })));
  $('t-desc').textContent = lv ? lv.description || '' : '';
  const turn = $('t-turn');
  turn.textContent = turnWords();
  turn.className = 'turn';
  if (st && !st.result && !openSeats().length) {
    turn.style.color = seatColor(st.to_move - 1);
    if (T.role === 'seat' && st.to_move === T.seat) turn.classList.add('mine');
  } else {
    turn.style.color = '';
  }
  show($('t-watching'), T.role === 'watch' && !T.failed);
  // A finished game is marked so in the lobby's "Your seats".
  if (st && st.result && T.role === 'seat' && T.seat) store.describe(T.id, { over: true });
  // No empty panel while a name is asked.
  show($('t-panel'), !!(st || T.failed || T.displaced || T.note));
  renderFailure();
  renderResult();
  renderSeats();
  renderInvite();
  renderTakeBack();
  renderActions();
  renderLegal();
  renderLog();
}

function renderFailure() {
  const box = $('t-notice');
  box.replaceChildren();
  box.style.borderLeftColor = T.note && T.note.seat != null && !T.failed && !T.displaced ? seatColor(T.note.seat - 1) : '';
  let any = false;
  if (T.failed) {
    any = true;
    const e = T.failed;
    box.append(h('p', { text: errorWords(e) }));
    const actions = h('div', { class: 'row-actions' });
    if (e.code === 'no_seat' || e.code === 'bad_token') {
      actions.append(h('a', { class: 'button', href: `#watch=${T.id}`, text: 'Watch instead' }));
    }
    if (e.code === 'connection' || e.code === 'timeout') {
      actions.append(h('button', { type: 'button', text: 'Try again', on: { click: () => attach() } }));
    }
    actions.append(h('a', { class: 'button', href: '#', text: 'Back to the lobby' }));
    box.append(actions);
  } else if (T.displaced) {
    any = true;
    box.append(
      h('p', { text: 'This seat is now played from another window or device.' }),
      h('button', { type: 'button', text: 'Play it here', on: { click: () => { T.displaced = false; attach(); } } }),
    );
  } else if (T.note) {
    any = true;
    const p = h('p', { class: 'note-text' });
    if (T.note.seat != null) p.append(swatch(T.note.seat - 1), ' ');
    p.append(T.note.text);
    box.append(p);
  }
  show(box, any);
}

function renderResult() {
  const el = $('t-result');
  const res = T.st && T.st.result;
  show(el, !!res);
  if (!res) return;
  el.textContent = resultWords(res);
  el.className = 'result';
  if (res.winner != null) el.style.borderColor = seatColor(res.winner - 1);
  else el.style.borderColor = '';
}

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** Each seat's time now, counting down locally from the last message. */
function currentClock() {
  const c = T && T.st && T.st.clock;
  if (!c) return null;
  const spent = performance.now() - T.clockAt;
  return c.remaining_ms.map((ms, i) => (c.running === i + 1 && !T.st.result ? ms - spent : ms));
}

function renderSeats() {
  const list = $('t-seats');
  list.replaceChildren();
  if (!T.st) return;
  const st = T.st;
  const clocks = currentClock();
  for (const s of st.seats) {
    const li = h('li', { class: 'seat' });
    if (!st.result && st.to_move === s.seat && !openSeats().length) li.classList.add('to-move');
    li.style.borderColor = seatColor(s.seat - 1);
    const name = h('span', { class: 'seat-name', text: seatWords(s) });
    name.style.color = seatColor(s.seat - 1);
    li.append(swatch(s.seat - 1), name);
    if (T.role === 'seat' && s.seat === T.seat) li.append(h('span', { class: 'you', text: ' (you)' }));
    if (s.kind === 'person' && s.taken) {
      li.append(h('span', { class: s.connected ? 'presence on' : 'presence', text: s.connected ? 'here' : 'away' }));
    }
    if (s.standing_in) li.append(h('span', { class: 'dim', text: ` ${s.standing_in} plays for them` }));
    if (clocks) {
      const c = h('span', { class: 'clock', text: fmtClock(clocks[s.seat - 1]) });
      c.dataset.seat = String(s.seat);
      if (st.clock.running === s.seat && !st.result) c.classList.add('running');
      li.append(c);
    }
    list.append(li);
  }
}

setInterval(() => {
  if (!T || !T.st || !T.st.clock || T.st.result) return;
  const clocks = currentClock();
  for (const el of document.querySelectorAll('#t-seats .clock')) {
    const ms = clocks[Number(el.dataset.seat) - 1];
    el.textContent = fmtClock(ms);
    el.classList.toggle('low', ms < 30000);
  }
}, 250);

function inviteLink(seat) {
  return `${location.origin}${location.pathname}#table=${T.id}&seat=${seat}`;
}

function renderInvite() {
  const box = $('t-invite');
  const open = T.st && T.role === 'seat' && T.seat ? openSeats().filter((s) => s.kind === 'person') : [];
  box.replaceChildren();
  show(box, open.length > 0);
  if (!open.length) return;
  box.append(h('h2', { text: 'Invite a friend' }), h('p', { class: 'dim', text: 'Send this link: it opens this table at the open seat.' }));
  for (const s of open) {
    const id = `invite-${s.seat}`;
    // The whole link shows (it wraps).
    const input = h('textarea', { id, class: 'link', readOnly: true, rows: 2, spellcheck: false, value: inviteLink(s.seat) });
    const said = h('span', { class: 'dim copied', attrs: { 'aria-live': 'polite' } });
    const copy = h('button', {
      type: 'button',
      text: 'Copy',
      on: {
        click: async () => {
          try {
            // A clipboard that neither copies nor refuses soon (a permission
            // asked of no one) counts as refused.
            await Promise.race([
              navigator.clipboard.writeText(input.value),
              new Promise((_, no) => setTimeout(() => no(new Error('no clipboard')), 1500)),
            ]);
            said.textContent = 'Copied.';
          } catch {
            // No clipboard (plain http, or refused): select it for the person.
            input.focus();
            input.select();
            let ok = false;
            try {
              ok = document.execCommand('copy');
            } catch {
              ok = false;
            }
            said.textContent = ok ? 'Copied.' : 'Selected: copy it with Ctrl+C (or long-press).';
          }
        },
      },
    });
    box.append(h('div', { class: 'invite-row' }, swatch(s.seat - 1), h('label', { attrs: { for: id }, text: `Seat ${s.seat}` }), copy, input, said));
  }
}

function renderTakeBack() {
  const box = $('t-takeback');
  box.replaceChildren();
  const tb = T.st && T.st.take_back;
  const rematchers = [...T.rematchBy].filter((b) => b !== T.seat);
  if (tb) {
    const to = tb.to_ply + 1;
    if (T.role === 'seat' && tb.by === T.seat) {
      box.append(h('p', { text: `You asked to take back to move ${to}: waiting for an answer.` }));
    } else {
      box.append(h('p', { text: `${nameOf(tb.by)} asks to take back to move ${to}.` }));
      if (T.role === 'seat' && T.seat && seatInfo(T.seat)?.kind === 'person') {
        box.append(
          h('div', { class: 'row-actions' },
            h('button', { type: 'button', class: 'primary', text: 'Accept', on: { click: () => answer(true) } }),
            h('button', { type: 'button', text: 'Decline', on: { click: () => answer(false) } })),
        );
      }
    }
  } else if (T.st && T.st.result && rematchers.length) {
    box.append(h('p', { text: `${rematchers.map(nameOf).join(' and ')} ask${rematchers.length === 1 ? 's' : ''} for a rematch.` }));
  } else if (T.st && T.st.result && T.rematchAsked) {
    box.append(h('p', { text: 'You asked for a rematch: waiting for the others.' }));
  }
  show(box, box.childNodes.length > 0);
}

async function request(msg, t = T) {
  if (T === t) tableError(null); // an error stays until the next action
  try {
    return await net.request(msg);
  } catch (e) {
    if (T === t) tableError(e);
    return null;
  }
}

async function answer(accept) {
  await request({ type: 'answer', table: T.id, seat: T.seat, accept });
}

function renderActions() {
  const st = T.st;
  const seated = T.role === 'seat' && T.seat != null && st && !T.displaced;
  const over = !!(st && st.result);
  const begun = st && !openSeats().length;
  const myMoves = st ? st.moves.some((m) => m.seat === T.seat) : false;
  show($('a-takeback'), seated && !over);
  $('a-takeback').disabled = !(seated && begun && myMoves && !st.take_back);
  show($('a-resign'), seated && !over);
  $('a-resign').disabled = !(seated && begun);
  show($('a-rematch'), seated && over);
  const others = [...T.rematchBy].some((b) => b !== T.seat);
  $('a-rematch').textContent = others ? 'Accept the rematch' : 'Rematch';
  $('a-rematch').disabled = T.rematchAsked;
  show($('t-confirm'), T.resignAsk && seated && !over);
  show($('t-actions'), !!st);
  show($('t-about'), !!(st && st.level));
}

$('a-takeback').addEventListener('click', async () => {
  tableError(null);
  await request({ type: 'take_back', table: T.id, seat: T.seat });
});
$('a-resign').addEventListener('click', () => {
  T.resignAsk = true;
  renderActions();
  $('a-resign-no').focus();
});
$('a-resign-no').addEventListener('click', () => {
  T.resignAsk = false;
  renderActions();
});
$('a-resign-yes').addEventListener('click', async () => {
  T.resignAsk = false;
  renderActions();
  await request({ type: 'resign', table: T.id, seat: T.seat });
});
$('a-rematch').addEventListener('click', async () => {
  const t = T;
  t.rematchAsked = true;
  renderActions();
  const ok = await request({ type: 'rematch', table: t.id, seat: t.seat }, t);
  if (!ok && T === t) {
    t.rematchAsked = false;
    renderActions();
  } else if (T === t) renderTakeBack();
});
$('a-leave').addEventListener('click', () => {
  location.hash = '#';
});

function renderLegal() {
  const box = $('t-legal-box');
  const list = $('t-legal');
  const legal = T && T.st && T.role === 'seat' && !T.displaced ? T.st.legal : [];
  const hadFocus = list.contains(document.activeElement);
  show(box, legal.length > 0);
  list.replaceChildren();
  if (!legal.length) {
    sayMoreMoves();
    return;
  }
  $('t-legal-sum').textContent = `Your moves (${legal.length})`;
  // Open by default while short, and then all of it shows; a long list
  // (a Robot board's exchanges) waits to be asked for, is only built
  // then, and scrolls in its box.
  const short = legal.length <= 40;
  if (!box.dataset.touched) {
    box.dataset.auto = String(short);
    box.open = short;
  }
  list.classList.toggle('capped', !short);
  if (!box.open) {
    sayMoreMoves();
    return;
  }
  for (const l of legal) {
    list.append(h('button', { type: 'button', class: 'move', text: l.says, disabled: T.sending, on: { click: () => play(l.move) } }));
  }
  list.scrollTop = 0;
  sayMoreMoves();
  // A keyboard player who chose from the list stays in it.
  if (hadFocus && !T.sending) list.firstElementChild.focus();
}

/** Under a list of moves that scrolls: that more are below. */
function sayMoreMoves() {
  const list = $('t-legal');
  const more = $('t-legal-more');
  const n = list.childElementCount;
  const hiddenBelow = n > 0 && list.scrollHeight - list.scrollTop - list.clientHeight > 2;
  list.classList.toggle('more-below', hiddenBelow);
  more.textContent = hiddenBelow ? `${n} moves: scroll the list for more.` : '';
  show(more, hiddenBelow);
}
$('t-legal').addEventListener('scroll', sayMoreMoves, { passive: true });
$('t-legal-box').addEventListener('toggle', () => {
  // Opened or closed by the person (not by renderLegal): it stays so.
  const box = $('t-legal-box');
  if (String(box.open) !== box.dataset.auto) box.dataset.touched = '1';
  if ($('t-legal-box').open && !$('t-legal').childElementCount && T) renderLegal();
  else sayMoreMoves();
});

function renderLog() {
  const list = $('t-log');
  const moves = T.st ? T.st.moves : [];
  // Appends what is new: the log grows by one a move.
  if (list.childElementCount > moves.length) list.replaceChildren();
  for (let i = list.childElementCount; i < moves.length; i++) {
    const m = moves[i];
    const who = h('span', { class: 'who', text: `${nameOf(m.seat)}: ` });
    who.style.color = seatColor(m.seat - 1);
    list.append(h('li', {}, who, h('span', { text: m.says })));
  }
  $('t-log-h').textContent = moves.length ? `Moves (${moves.length})` : 'Moves';
  show(list.parentElement, moves.length > 0);
  fitLog();
}

/**
 * The log scrolls in its own box (the page never jumps) to its newest
 * move, the box as high as the newest moves that fit whole (its CSS
 * max-height at most): no half line at its top.
 */
function fitLog() {
  const list = $('t-log');
  list.style.height = '';
  const cap = list.clientHeight;
  let height = 0;
  if (list.scrollHeight > cap + 1) {
    for (let i = list.children.length - 1; i >= 0; i--) {
      const hi = list.children[i].getBoundingClientRect().height;
      if (height + hi > cap && height > 0) break;
      height += hi;
    }
    // Rounded down: under a pixel of the top line's margin is lost.
    list.style.height = `${Math.floor(height)}px`;
  }
  list.scrollTop = list.scrollHeight;
}
window.addEventListener('resize', () => {
  if (T) {
    fitLog();
    sayMoreMoves();
  }
});

// ---------------------------------------------------------------- start

renderName();
renderStatus();
net.connect();
onRoute();
