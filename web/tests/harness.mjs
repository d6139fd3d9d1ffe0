// Shared test harness for tabula's web page: start and stop a server, open
// pages in Chromium, and drive the page's lobby and tables.
//
//   import { startServer, launch, openPage, createTable, ... } from './harness.mjs';
//   const server = await startServer();            // its own db, replays, port
//   const browser = await launch();                // Debian's Chromium, headless
//   const { page, problems } = await openPage(browser, server, { name: 'Ann' });
//   const table = await createTable(page, { level: 'nim/beginner-2-3', seats: ['random'] });
//   ... assert on the page ...
//   await browser.close(); await server.stop();
//
// A test file that needs one server and one browser for all its tests:
//
//   const live = useServerAndBrowser();             // started before its tests, stopped after
//   test('...', async () => { const { page } = await openPage(live.browser, live.server); ... });
//
// An opponent is either an agent the server runs (a seat spec such as
// 'random' in createTable's seats), or a `tabula bot` of its own, a client
// of the protocol like the page, at a seat left to a person:
//
//   const table = await createTable(page, { level: 'nim/beginner-2-3', seats: ['person'] });
//   const bot = startBot(server, table, { agent: 'random', seat: 2, name: 'random bot' });
//   t.after(() => bot.stop());                     // never left running
//   ... play from the page to the end ...
//   await assertBotFinished(page, bot);            // it told the same game, and exited 0
//   botGame(bot.output()).over.winner              // what it printed, parsed
//
// or, all of that start at once (the bot named "random bot", stopped after
// the test `t`, and the page shown ready to move):
//
//   const { page, problems, bot } = await gameAgainstBot(t, live, { level: 'nim/beginner-2-3', agent: 'random', ready: '.stone.playable' });
//
// Environment:
//   TABULA_SERVER  the server binary (default /tmp/web/bin/tabula-server)
//   TABULA         the tabula binary startBot runs (default /tmp/web/bin/tabula)
//   CHROMIUM       the browser (default /usr/bin/chromium)
//   TABULA_WEB     "embedded" to test the page built into the server instead
//                  of the files in web/public (--web)
//   TABULA_SHOTS   a folder: shot() saves screenshots there (else nowhere)
//   TABULA_WAIT    the longest single wait in ms (default 20000)
//
// Every wait is bounded: each helper takes a timeout (ms) and fails with a
// message saying what it waited for.

import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '..', '..');
export const PUBLIC = path.join(REPO, 'web', 'public');
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };
/** How long a single wait may last (ms): generous, as a busy machine is slow. */
export const WAIT = Number(process.env.TABULA_WAIT) || 20000;

const SERVER = process.env.TABULA_SERVER || '/tmp/web/bin/tabula-server';
const TABULA = process.env.TABULA || '/tmp/web/bin/tabula';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Starts a server on 127.0.0.1 with a fresh database and replays folder.
 * `port` (optional) asks for that port (a restart on the same address);
 * `dir` (optional) reuses a folder (and so the database) of an earlier run.
 * @returns {Promise<{port: number, url: string, dir: string, log: () => string,
 *   stop: (opts?: {keep?: boolean}) => Promise<void>}>}
 */
export async function startServer({ port = 0, dir = null, args = [], timeout = 15000 } = {}) {
  const folder = dir || mkdtempSync(path.join(tmpdir(), 'tabula-web-'));
  const web = process.env.TABULA_WEB === 'embedded' ? [] : ['--web', PUBLIC];
  const child = spawn(
    SERVER,
    [
      '--listen', `127.0.0.1:${port}`,
      '--db', path.join(folder, 's.db'),
      '--replays', path.join(folder, 'replays'),
      '--levels', path.join(REPO, 'levels'),
      ...web,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const found = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not say where it listens in ${timeout} ms:\n${out}`)), timeout);
    const look = () => {
      const m = /listening on wss?:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${out}`));
    });
    look();
  });
  return {
    port: found,
    // The page is https:// when the server was given a certificate.
    url: `${args.includes('--tls-cert') ? 'https' : 'http'}://127.0.0.1:${found}/`,
    dir: folder,
    log: () => out,
    /** Stops the server; keep: true keeps its folder for a restart. */
    async stop({ keep = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
      if (!keep) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `tabula bot` ($TABULA) at `table` of `server`: a client of the
 * protocol of its own (not an agent the server runs) that takes `seat` (the
 * first open one if null) and plays it with `agent` under `name`, to the end
 * of the game, when it exits by itself. It prints a line a message worth
 * telling: "move N: seat S <move>" for each move, "the game is over: seat
 * W won (<reason>), scores [...]" (or "a draw"), and last "K moves played
 * by this seat".
 * @returns {{args: string[], output: () => string, exited: Promise<number|string>,
 *   waitExit: (timeout?: number) => Promise<number|string>,
 *   waitOutput: (re: RegExp, timeout?: number) => Promise<string[]>,
 *   stop: () => Promise<void>}}
 *   output() is its stdout and stderr so far; exited resolves with its exit
 *   code (a signal's name if killed, -1 if it could not start); waitExit
 *   awaits that within `timeout` ms; waitOutput waits for a line of its
 *   output matching `re` (the match); stop() kills it if it still runs.
 */
export function startBot(server, table, { agent = 'random', seat = null, name = null } = {}) {
  const args = ['bot', `ws://127.0.0.1:${server.port}`, '--table', table];
  if (seat != null) args.push('--seat', String(seat));
  args.push('--agent', agent);
  if (name != null) args.push('--name', name);
  const child = spawn(TABULA, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const heard = new Set();
  const tell = () => heard.forEach((f) => f());
  child.stdout.on('data', (d) => { out += d; tell(); });
  child.stderr.on('data', (d) => { out += d; tell(); });
  const exited = new Promise((resolve) => {
    child.once('error', (e) => {
      out += `\n(could not run ${TABULA}: ${e.message})\n`;
      resolve(-1);
    });
    // 'close': the process ended and its output has been read to the end.
    child.once('close', (code, signal) => resolve(code ?? signal));
  });
  let done = false;
  exited.then(() => { done = true; tell(); });
  const said = () => `\`tabula ${args.join(' ')}\` said:\n${out}`;
  return {
    args,
    output: () => out,
    exited,
    waitExit(timeout = WAIT) {
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the bot did not exit within ${timeout} ms; ${said()}`)), timeout);
      });
      return Promise.race([exited, late]).finally(() => clearTimeout(timer));
    },
    waitOutput(re, timeout = WAIT) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const m = out.split('\n').map((line) => re.exec(line)).find(Boolean);
          if (m || done) {
            heard.delete(look);
            clearTimeout(timer);
            if (m) resolve(m);
            else reject(new Error(`the bot exited without a line matching ${re}; ${said()}`));
          }
        };
        const timer = setTimeout(() => {
          heard.delete(look);
          reject(new Error(`no line of the bot's matched ${re} within ${timeout} ms; ${said()}`));
        }, timeout);
        heard.add(look);
        look();
      });
    },
    async stop() {
      if (done || child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/**
 * A game against a `tabula bot` begun: a page of Ann's at `live.server`
 * (opened in `live.browser`) creates a table of `level` and leaves seat 2
 * to a person, which a bot playing `agent` as "<agent> bot" takes (stopped
 * when the test `t` ends); then the page shows the bot's name at seat 2
 * and `ready` (a selector) that it may move.
 * @returns {Promise<{page: import('playwright-core').Page, problems: string[],
 *   table: string, bot: ReturnType<typeof startBot>}>}
 */
export async function gameAgainstBot(t, live, { level, agent, ready }) {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(page, { level, seats: ['person'] });
  const name = `${agent} bot`;
  const bot = startBot(live.server, table, { agent, seat: 2, name });
  t.after(() => bot.stop());
  await bot.waitOutput(/^seat 2 at table /); // it has taken the seat (else: what it said)
  await page.locator(ready).first().waitFor({ timeout: WAIT });
  assert.equal(await page.textContent('#t-seats li:nth-child(2) .seat-name'), name);
  return { page, problems, table, bot };
}

/**
 * What a bot's output tells of its game: `moves` ({ply, seat, says}, one a
 * "move N: seat S ..." line), `over` (null until its "the game is over"
 * line, then {winner: a seat or null for a draw, reason, scores}) and
 * `played` (the moves it played itself, from its last line; null before).
 */
export function botGame(output) {
  const moves = [...output.matchAll(/^move (\d+): seat (\d+) (.*)$/gm)].map((m) => ({ ply: Number(m[1]), seat: Number(m[2]), says: m[3] }));
  const o = /^the game is over: (?:seat (\d+) won|a draw) \(([^)]*)\), scores \[([^\]]*)\]$/m.exec(output);
  const over = o ? { winner: o[1] ? Number(o[1]) : null, reason: o[2], scores: o[3] ? o[3].split(', ').map(Number) : [] } : null;
  const p = /^(\d+) moves? played by this seat$/m.exec(output);
  return { moves, over, played: p ? Number(p[1]) : null };
}

/**
 * After a game a page (seat `me`) played to its end against `bot` (at seat
 * `seat`): asserts the bot exits 0 by itself (within `timeout` ms) and its
 * output tells the same game: every move the page's log lists, in order,
 * as many as the page's ply, then the end with the winner the page's
 * result names, then its own count of moves (those of its seat).
 * @returns {Promise<ReturnType<typeof botGame>>} what the bot told
 */
export async function assertBotFinished(page, bot, { me = 1, seat = 2, timeout = WAIT } = {}) {
  const code = await bot.waitExit(timeout);
  const out = bot.output();
  assert.equal(code, 0, `the bot exits 0 by itself; it said:\n${out}`);
  const game = botGame(out);
  assert.ok(game.over, `the bot says the game is over; it said:\n${out}`);
  const lines = out.trimEnd().split('\n');
  assert.match(lines[lines.length - 1], /^\d+ moves? played by this seat$/, 'its last line counts its moves');
  assert.match(lines[lines.length - 2], /^the game is over: /, 'the line before says the result');
  const log = await page.$$eval('#t-log li', (lis) => lis.map((li) => li.lastElementChild.textContent));
  assert.deepEqual(game.moves.map((m) => m.says), log, 'the bot heard every move the page logs, in order');
  assert.deepEqual(game.moves.map((m) => m.ply), log.map((_, i) => i + 1), 'one line a ply');
  assert.equal(Number(await page.evaluate(() => document.querySelector('#table').dataset.ply)), log.length);
  if (!/^refused: /m.test(out)) {
    assert.equal(game.played, game.moves.filter((m) => m.seat === seat).length, "its count is its seat's moves");
  }
  const result = await page.textContent('#t-result');
  const head = game.over.winner == null ? /^Draw/ : game.over.winner === me ? /^You won/ : /^You lost/;
  assert.match(result, head, `the page's result agrees with the bot's (seat ${game.over.winner} won)`);
  return game;
}

/** Launches the system's Chromium, headless. */
export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/**
 * A test file's server and browser, shared by its tests: registers a
 * before hook that starts the server (startServer's `options`, or a
 * function, run then, that returns them) and launches the browser, and an
 * after hook that closes the browser and stops the server. Tests read
 * `.server` and `.browser` of what it returns; a test that restarts the
 * server puts the new one in `.server`, and that one is stopped.
 * @returns {{server: Awaited<ReturnType<typeof startServer>> | null,
 *   browser: Awaited<ReturnType<typeof launch>> | null}}
 */
export function useServerAndBrowser(options = {}) {
  const live = { server: null, browser: null };
  before(async () => {
    live.server = await startServer(typeof options === 'function' ? await options() : options);
    live.browser = await launch();
  });
  after(async () => {
    await live.browser?.close();
    await live.server?.stop();
  });
  return live;
}

/**
 * Opens the page in a new browser context (its own localStorage: another
 * person). `name` is stored as the player's name before the page runs
 * (unless one is stored already); `hash` is the route (#table=ID...);
 * `touch` makes it a phone's (PHONE's size, a touch screen, a mobile
 * browser) whatever `viewport` says. `problems` collects console errors,
 * page errors, CSP violations and dialogs (alert/confirm), which tests
 * assert empty.
 */
export async function openPage(browser, server, { name = null, hash = '', viewport = DESKTOP, touch = false, context = null } = {}) {
  const ctx = context || (await browser.newContext(touch ? { viewport: PHONE, hasTouch: true, isMobile: true } : { viewport }));
  if (name != null && !context) {
    await ctx.addInitScript((n) => {
      if (!localStorage.getItem('tabula.name')) localStorage.setItem('tabula.name', n);
    }, name);
  }
  const page = await ctx.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', async (d) => {
    problems.push(`dialog: ${d.type()} ${d.message()}`);
    await d.dismiss();
  });
  await page.goto(server.url + hash);
  await waitConnected(page);
  return { context: ctx, page, problems };
}

/** Waits until the page says it is connected. */
export async function waitConnected(page, timeout = WAIT) {
  await page.locator('#conn.connected').waitFor({ timeout });
}

/**
 * Creates a table from the lobby's form and sits at seat 1.
 * seats: who plays seats 2.. ("person" for a friend, else an agent's name).
 * @returns {Promise<string>} the table's id
 */
export async function createTable(page, { level, seats = [], listed = false, spectators = true, clock = null, timeout = WAIT }) {
  await page.locator('#new-level option').first().waitFor({ state: 'attached', timeout });
  const game = level.split('/')[0]; // the level's folder names its game
  const games = { nim: 'Nim', mancala: 'Mancala', robots: 'Robots', russian_bank: 'RussianBank' };
  await page.selectOption('#new-game', games[game]);
  await page.selectOption('#new-level', level);
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#new-seat-${i + 2}`, seats[i]);
  await page.setChecked('#new-listed', listed);
  await page.setChecked('#new-spectators', spectators);
  if (clock) {
    await page.setChecked('#new-clock', true);
    await page.fill('#new-minutes', String(clock.minutes));
    await page.fill('#new-inc', String(clock.increment));
  }
  await page.click('#new-create');
  await page.waitForFunction(() => /seat=1/.test(location.hash) && document.querySelector('#table')?.dataset.ply != null, null, { timeout });
  return page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('table'));
}

/** The table's ply as the page shows it (NaN before a state came). */
export async function ply(page) {
  return Number(await page.evaluate(() => document.querySelector('#table')?.dataset.ply ?? 'NaN'));
}

/** Waits until the page's table has reached at least ply `n`. */
export async function waitPly(page, n, timeout = WAIT) {
  await page.waitForFunction((k) => Number(document.querySelector('#table')?.dataset.ply) >= k, n, { timeout });
}

/** Waits until the page's table is at ply `n` exactly. */
export async function atPly(page, n, timeout = WAIT) {
  await page.waitForFunction((k) => document.querySelector('#table').dataset.ply === String(k), n, { timeout });
}

/** Waits until the page's log of moves has `text` in it. */
export async function logHas(page, text, timeout = 10000) {
  await page.waitForFunction((t) => document.querySelector('#t-log')?.textContent.includes(t), text, { timeout });
}

/** Whether the game shown is over (the result is up). */
export async function isOver(page) {
  return page.evaluate(() => !document.querySelector('#t-result').hidden);
}

/**
 * Plays a whole game from the page: waits until the page may move (the
 * board shows a playable piece, `playable` a selector) or the game is
 * over, lets `move(page)` play, and waits for that move to be heard.
 * Bounded by `maxMoves` of ours and `timeout` in all.
 * @returns {Promise<number>} the moves this page played
 */
export async function playToEnd(page, { playable, move, maxMoves = 200, timeout = 60000 }) {
  const until = Date.now() + timeout;
  let played = 0;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0) throw new Error(`the game did not end within ${timeout} ms (${played} moves played)`);
    await page.waitForFunction(
      (sel) => !document.querySelector('#t-result').hidden || document.querySelector(sel) !== null,
      playable,
      { timeout: left },
    );
    if (await isOver(page)) return played;
    if (played >= maxMoves) throw new Error(`more than ${maxMoves} moves and no end`);
    const before = await ply(page);
    await move(page);
    played += 1;
    await waitPly(page, before + 1, Math.max(1, until - Date.now()));
  }
}

/** Saves a screenshot into $TABULA_SHOTS (if set) as `name`.png. */
export async function shot(page, name) {
  const dir = process.env.TABULA_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Polls `fn` (Node side) until it returns a truthy value. */
export async function until(fn, { timeout = WAIT, every = 50, what = 'a condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
