// Makes the Robot board's and Russian Bank's screenshots of
// docs/screenshots (web-robots-*.png, web-bank-*.png), mid-game, at a
// desktop's width and a phone's.
//   node web/tests/screenshots-boards.mjs [folder]   (default: docs/screenshots)
// Not a test (node --test skips it); it uses the tests' harness.

import path from 'node:path';
import { startServer, launch, openPage, createTable, waitPly, ply, REPO, PHONE, DESKTOP } from './harness.mjs';

const out = process.argv[2] || path.join(REPO, 'docs', 'screenshots');
const server = await startServer();
const browser = await launch();

/** Plays a hidden-home board by keys (one list of keys a move of ours), then shades the seat's homes. */
async function robots(viewport, level, agent, moves, name) {
  const { page, context } = await openPage(browser, server, { name: 'Ann', viewport });
  await createTable(page, { level, seats: [agent] });
  for (const keys of moves) {
    await page.locator('.bd-robots[data-can-act]').waitFor({ timeout: 20000 });
    const before = await ply(page);
    await page.locator('#t-turn').click();
    for (const k of keys) await page.keyboard.press(k);
    await waitPly(page, before + 2, 20000);
  }
  await page.locator('.bd-robots[data-can-act]').waitFor({ timeout: 20000 });
  await page.keyboard.press('h');
  await page.evaluate(() => scrollTo(0, 0));
  // The last glide (0.28 s) ends before the picture.
  await page.waitForFunction(() => document.getAnimations().length === 0, null, { timeout: 5000 });
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  await context.close();
}

/** A few turns of Russian Bank by keys, then a card picked up: dragged, or clicked. */
async function bank(viewport, name, drag) {
  const { page, context } = await openPage(browser, server, { name: 'Ann', viewport });
  await createTable(page, { level: 'russian_bank/01-shuffled-deal', seats: ['greedy'] });
  // Six moves, then on until a card may move (a bounded while).
  for (let i = 0; i < 30; i++) {
    await page.locator('.bd-bank[data-can-act]').waitFor({ timeout: 20000 });
    const plays = await page.locator('.bk-svg [data-source]').count();
    if (i >= 6 && plays) break;
    const before = await ply(page);
    await page.locator('#t-turn').click();
    if (plays && i % 2 === 0) for (const k of ['ArrowRight', 'Enter', 'ArrowRight', 'Enter']) await page.keyboard.press(k);
    else if (await page.locator('.bd-actions button', { hasText: 'Turn hand' }).isEnabled()) await page.keyboard.press('h');
    else if (await page.locator('.bd-actions button', { hasText: 'To waste' }).isEnabled()) await page.keyboard.press('w');
    else for (const k of ['ArrowRight', 'Enter', 'ArrowRight', 'Enter']) await page.keyboard.press(k);
    await waitPly(page, before + 1, 20000);
  }
  await page.locator('.bd-bank[data-can-act]').waitFor({ timeout: 20000 });
  await page.evaluate(() => scrollTo(0, 0));
  const source = await page.locator('.bk-svg [data-source]').first().getAttribute('data-source');
  const card = page.locator(`.bk-svg g[data-pile="${source}"]`);
  if (drag) {
    const b = await card.boundingBox();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 + 40, b.y - 50, { steps: 5 });
  } else await card.click();
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  if (drag) await page.mouse.up();
  await context.close();
}

try {
  await robots(DESKTOP, 'robots/14-scattered-hints', 'sleuth', [['a', 'ArrowDown'], ['a', 'ArrowRight'], ['a', 'ArrowRight'], ['b', '2'], ['a', 'ArrowDown']], 'web-robots-desktop');
  await robots(PHONE, 'robots/13-fog-and-belts', 'sleuth', [['a', 'ArrowDown'], ['a', 'ArrowRight'], ['b', '1'], ['a', 'ArrowDown']], 'web-robots-phone');
  await bank(DESKTOP, 'web-bank-desktop', true);
  await bank(PHONE, 'web-bank-phone', false);
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await server.stop();
}
