// A browser seat for a test outside node: opens `link` (a table's
// invitation, as a hosting window shows it) in Chromium as `name`, plays
// a random one of the legal moves the page lists whenever it may (its
// fallback list, which every game has), and once the game
// is over prints one JSON line: the move log and the result as the page
// shows them. The Rust test tests/app/online/browser.rs runs it beside a
// window at the same table. Bounded: it gives up after `seconds`.
//
//   node web/tests/seat.mjs http://127.0.0.1:PORT/#table=ID Web [seconds]

import { launch, waitConnected } from './harness.mjs';

const [link, name = 'Web', seconds = '90'] = process.argv.slice(2);
const deadline = Date.now() + Number(seconds) * 1000;
const left = () => Math.max(1, deadline - Date.now());

const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((n) => localStorage.setItem('tabula.name', n), name);
  const page = await context.newPage();
  await page.goto(link);
  await waitConnected(page, left());
  for (let moves = 0; moves < 500; moves++) {
    await page.waitForFunction(
      // Moves listed, or a long list waiting to be opened.
      () => !document.querySelector('#t-result').hidden || document.querySelector('#t-legal button') !== null
        || (!document.querySelector('#t-legal-box').hidden && !document.querySelector('#t-legal-box').open),
      null,
      { timeout: left() },
    );
    if (!(await page.locator('#t-result').isHidden())) break;
    const before = Number(await page.evaluate(() => document.querySelector('#table').dataset.ply));
    const box = page.locator('#t-legal-box');
    if (!(await box.evaluate((b) => b.open))) await page.click('#t-legal-sum');
    const offered = page.locator('#t-legal button');
    await offered.nth(Math.floor(Math.random() * (await offered.count()))).click();
    await page.waitForFunction((k) => Number(document.querySelector('#table').dataset.ply) > k, before, {
      timeout: left(),
    });
  }
  const log = await page.locator('#t-log li').allTextContents();
  const result = await page.textContent('#t-result');
  console.log(JSON.stringify({ log, result }));
} finally {
  await browser.close();
}
