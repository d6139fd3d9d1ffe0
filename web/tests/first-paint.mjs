// Measures how long a table's page takes to show its board on localhost:
// from navigating to an invitation link (a fresh browser context, nothing
// cached) to the board drawn with the moves listed, for each game. Not a
// test (speed is measured, not asserted); docs/benchmarks.md has its
// figures.
//
//   TABULA_SERVER=target/debug/tabula-server node web/tests/first-paint.mjs [runs]

import { startServer, launch, openPage, createTable } from './harness.mjs';

const runs = Number(process.argv[2] || 5);
const levels = ['nim/traditional-3-4-5', 'mancala/kalah-6-4', 'robots/12-hidden-homes', 'russian_bank/01-shuffled-deal'];
const server = await startServer();
const browser = await launch();
try {
  for (const level of levels) {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const { page, context } = await openPage(browser, server, { name: 'Host' });
      const table = await createTable(page, { level, seats: ['person'] });
      await context.close();
      const guest = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await guest.addInitScript(() => localStorage.setItem('tabula.name', 'Guest'));
      const tab = await guest.newPage();
      const start = Date.now();
      await tab.goto(`${server.url}#table=${table}&seat=2`);
      await tab.waitForFunction(() => document.querySelector('#table')?.dataset.ply != null
        && document.querySelector('#board-root svg') !== null, null, { timeout: 20000 });
      times.push(Date.now() - start);
      await guest.close();
    }
    times.sort((a, b) => a - b);
    console.log(`${level}: median ${times[Math.floor(times.length / 2)]} ms, min ${times[0]}, max ${times[times.length - 1]} (${runs} runs)`);
  }
} finally {
  await browser.close();
  await server.stop();
}
