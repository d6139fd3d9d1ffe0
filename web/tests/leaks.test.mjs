// (c) The page leaks no hidden information: two tables made from level
// texts that differ only in what no seat may see (Russian Bank: two
// face-down reserve cards swapped; the Robot board: a hidden home on
// another tile) give each seat's page the same DOM and the same
// localStorage, once the table id and the token are masked, at the start
// and after the same moves. The server's own tests build such pairs the
// same way (crates/server/tests/secrets.rs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitPly, until, REPO } from './harness.mjs';

const live = useServerAndBrowser();

const level = (name) => readFileSync(path.join(REPO, 'levels', name), 'utf8');

/** Creates a table from a level's text, over a WebSocket of the page's origin. */
async function createByText(page, text, seats) {
  return page.evaluate(
    ([text, seats]) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/`);
        const timer = setTimeout(() => reject(new Error('no answer to create')), 10000);
        ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', version: 1, name: 'Host' }));
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'welcome') ws.send(JSON.stringify({ type: 'create', id: 1, level_text: text, seats }));
          else if (m.type === 'created' || m.type === 'error') {
            clearTimeout(timer);
            ws.close();
            if (m.type === 'created') resolve(m.table);
            else reject(new Error(m.message));
          }
        };
      }),
    [text, seats],
  );
}

/** The page as it stands (DOM and localStorage), table ids and tokens masked. */
async function snapshot(page, tables) {
  const raw = await page.evaluate(() => {
    const store = {};
    for (let i = 0; i < localStorage.length; i++) store[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
    return { dom: document.documentElement.outerHTML, store: JSON.stringify(store, Object.keys(store).sort()) };
  });
  const mask = (s) => tables.reduce((t, id) => t.split(id).join('<table>'), s).replace(/\b[0-9a-f]{32}\b/g, '<token>');
  return { dom: mask(raw.dom), store: mask(raw.store) };
}

/** Where two texts first differ, for the failure message. */
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}:\n  ${a.slice(Math.max(0, i - 120), i + 120)}\n  ---\n  ${b.slice(Math.max(0, i - 120), i + 120)}`;
}

/** Asserts that the twins' pages look alike (polled: a message may be on its way). */
async function alike(pages, tables, what) {
  let last = null;
  try {
    await until(
      async () => {
        const [a, b] = [await snapshot(pages[0], tables), await snapshot(pages[1], tables)];
        last = [a, b];
        return a.dom === b.dom && a.store === b.store;
      },
      { timeout: 5000, what },
    );
  } catch {
    const [a, b] = last;
    assert.equal(a.store, b.store, `${what}: localStorage differs`);
    assert.fail(`${what}: the DOM differs ${firstDifference(a.dom, b.dom)}`);
  }
  assert.ok(last[0].store.includes('<token>'), `${what}: the seat's token is kept (masked here)`);
  assert.ok(last[0].dom.includes('bd '), `${what}: a board is drawn`);
}

async function press(page, ...keys) {
  await page.locator('#t-turn').click();
  for (const k of keys) await page.keyboard.press(k);
}

test('Russian Bank: two deals differing in face-down cards look alike to the seat', { timeout: 60000 }, async () => {
  const text = level('russian_bank/04-quick-win.ron');
  const swapped = text.replace('reserve: ["KD", "QC", "JH", "TS", "9C"]', 'reserve: ["QC", "KD", "JH", "TS", "9C"]');
  assert.notEqual(text, swapped);
  const host = await openPage(live.browser, live.server, {});
  const tables = [await createByText(host.page, text, ['person', 'greedy']), await createByText(host.page, swapped, ['person', 'greedy'])];
  const seats = [];
  for (const id of tables) seats.push(await openPage(live.browser, live.server, { name: 'Ann', hash: `#table=${id}&seat=1` }));
  const pages = seats.map((s) => s.page);
  for (const p of pages) await p.locator('.bd-bank[data-can-act]').waitFor({ timeout: 10000 });
  await alike(pages, tables, 'at the deal');

  // The same first move at both tables (it turns up the same card).
  for (const p of pages) {
    await press(p, 'r', 'f');
    await waitPly(p, 1);
    await p.locator('.bd-bank[data-can-act]').waitFor({ timeout: 10000 });
  }
  await alike(pages, tables, 'after 2♥ up');
  for (const s of [host, ...seats]) {
    assert.deepEqual(s.problems, []);
    await s.context.close();
  }
});

/** The hidden-home board with each robot's `which`-th candidate as its home. */
function homesAt(which) {
  const text = level('robots/12-hidden-homes.ron');
  const start = text.indexOf('board: [') + 'board: ['.length;
  const end = text.indexOf(']', start);
  const seen = {};
  const board = [...text.slice(start, end)]
    .map((c) => {
      if (!/[a-z]/.test(c) || c === 'v') return c;
      seen[c] = (seen[c] || 0) + 1;
      return seen[c] === which ? c : '.';
    })
    .join('');
  return (text.slice(0, start) + board + text.slice(end)).replace('homes: Hidden,', 'homes: Hidden,\n    move_cap: 120,');
}

test('the Robot board: two boards differing in a hidden home look alike to each seat', { timeout: 60000 }, async () => {
  const [a, b] = [homesAt(1), homesAt(2)];
  assert.notEqual(a, b);
  const host = await openPage(live.browser, live.server, {});
  const tables = [await createByText(host.page, a, ['person', 'person']), await createByText(host.page, b, ['person', 'person'])];
  const anns = [], bobs = [];
  for (const id of tables) {
    anns.push(await openPage(live.browser, live.server, { name: 'Ann', hash: `#table=${id}&seat=1` }));
    bobs.push(await openPage(live.browser, live.server, { name: 'Bob', hash: `#table=${id}&seat=2` }));
  }
  const ann = anns.map((s) => s.page), bob = bobs.map((s) => s.page);
  for (const p of ann) {
    await p.locator('.bd-robots[data-can-act]').waitFor({ timeout: 10000 });
    await press(p, 'h'); // the shading of where one's homes can be, from what is public
    await p.locator('.rb-clues li').first().waitFor({ timeout: 5000 });
  }
  await alike(ann, tables, "seat 1's page at the start");
  await alike(bob, tables, "seat 2's page at the start");

  // Robot A steps south at both tables, then robot C north.
  for (const p of ann) await press(p, 'a', 'ArrowDown');
  for (const p of bob) {
    await waitPly(p, 1);
    await p.locator('.bd-robots[data-can-act]').waitFor({ timeout: 10000 });
    await press(p, 'c', 'ArrowUp');
  }
  for (const p of [...ann, ...bob]) await waitPly(p, 2);
  await alike(ann, tables, "seat 1's page after two moves");
  await alike(bob, tables, "seat 2's page after two moves");
  for (const s of [host, ...anns, ...bobs]) {
    assert.deepEqual(s.problems, []);
    await s.context.close();
  }
});
