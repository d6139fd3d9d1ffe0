// Makes the web page's screenshots of docs/screenshots (web-*.png): the
// lobby, and Nim and Kalah at a desktop's width and a phone's.
//   node web/tests/screenshots.mjs [folder]   (default: docs/screenshots)
// Not a test (node --test skips it); it uses the tests' harness.

import path from 'node:path';
import { startServer, launch, openPage, createTable, waitPly, REPO, PHONE, DESKTOP } from './harness.mjs';

const out = process.argv[2] || path.join(REPO, 'docs', 'screenshots');
const server = await startServer();
const browser = await launch();
const save = (page, name, fullPage = false) => page.screenshot({ path: path.join(out, `${name}.png`), fullPage });

/** Plays `moves` of ours by `move`, each answered by the agent. */
async function playSome(page, playable, move, moves) {
  for (let i = 0; i < moves; i++) {
    await page.locator(playable).first().waitFor({ timeout: 10000 });
    const before = Number(await page.evaluate(() => document.querySelector('#table').dataset.ply));
    await move(page);
    await waitPly(page, before + 1);
  }
  await page.locator(playable).first().waitFor({ timeout: 10000 });
}

try {
  // The lobby, with tables listed by others.
  const ann = await openPage(browser, server, { name: 'Ann' });
  await createTable(ann.page, { level: 'nim/marienbad-1-3-5-7', seats: ['person'], listed: true });
  const carl = await openPage(browser, server, { name: 'Carl' });
  const kalah = await createTable(carl.page, { level: 'mancala/kalah-6-4', seats: ['person'], listed: true });
  const dan = await openPage(browser, server, { name: 'Dan', hash: `#table=${kalah}` });
  await waitPly(dan.page, 0);
  await carl.page.locator('.pit.playable').first().click();
  await waitPly(dan.page, 1);
  const bob = await openPage(browser, server, { name: 'Bob' });
  await bob.page.locator('#tables-list li').nth(1).waitFor({ timeout: 10000 });
  await bob.page.selectOption('#new-game', 'Mancala');
  await bob.page.selectOption('#new-level', 'mancala/kalah-6-4');
  await save(bob.page, 'web-lobby');

  // Nim, misère, against an agent: a hover shows what a click takes.
  const nim = await openPage(browser, server, { name: 'Bob' });
  await createTable(nim.page, { level: 'nim/mcmorran-5-6-7', seats: ['casual'] });
  await playSome(nim.page, '.stone.playable', (p) => p.locator('.stone.playable[data-pile="2"]').last().click(), 2);
  await nim.page.locator('.stone.playable[data-pile="1"]').nth(1).hover();
  await save(nim.page, 'web-nim-desktop');
  await nim.page.setViewportSize(PHONE);
  await nim.page.locator('.stone.playable[data-pile="1"]').nth(1).hover();
  await save(nim.page, 'web-nim-phone', true);

  // Kalah against an agent: a hover shows where the last stone lands.
  const man = await openPage(browser, server, { name: 'Bob' });
  await createTable(man.page, { level: 'mancala/kalah-6-4', seats: ['greedy'] });
  await playSome(man.page, '.pit.playable', (p) => p.locator('.pit.playable').last().click(), 3);
  const hoverBest = async (p) => {
    // The pit whose forecast says the most: a capture, else another turn.
    const cells = await p.$$eval('.pit.playable', (els) => els.map((e) => e.dataset.cell));
    let best = cells[0];
    for (const c of cells) {
      await p.hover(`.pit[data-cell="${c}"]`);
      const said = await p.textContent('.board-caption');
      if (/captures/.test(said)) return;
      if (/play again/.test(said)) best = c;
    }
    await p.hover(`.pit[data-cell="${best}"]`);
  };
  await hoverBest(man.page);
  await save(man.page, 'web-mancala-desktop');
  await man.page.setViewportSize(PHONE);
  await hoverBest(man.page);
  await save(man.page, 'web-mancala-phone', true);
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await server.stop();
}
