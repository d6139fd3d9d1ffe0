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
// Environment:
//   TABULA_SERVER  the server binary (default /tmp/web/bin/tabula-server)
//   CHROMIUM       the browser (default /usr/bin/chromium)
//   TABULA_WEB     "embedded" to test the page built into the server instead
//                  of the files in web/public (--web)
//   TABULA_SHOTS   a folder: shot() saves screenshots there (else nowhere)
//   TABULA_WAIT    the longest single wait in ms (default 20000)
//
// Every wait is bounded: each helper takes a timeout (ms) and fails with a
// message saying what it waited for.

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
      const m = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(out);
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
    url: `http://127.0.0.1:${found}/`,
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

/** Launches the system's Chromium, headless. */
export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/**
 * Opens the page in a new browser context (its own localStorage: another
 * person). `name` is stored as the player's name before the page runs
 * (unless one is stored already); `hash` is the route (#table=ID...).
 * `problems` collects console errors, page errors, CSP violations and
 * dialogs (alert/confirm), which tests assert empty.
 */
export async function openPage(browser, server, { name = null, hash = '', viewport = DESKTOP, context = null } = {}) {
  const ctx = context || (await browser.newContext({ viewport }));
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
