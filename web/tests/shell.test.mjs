// (f) The page around the boards says what is true now: an invitation
// says so before a name is given; a notice of a take-back or a rematch
// (which says the new seat and colour in words) goes once the game goes on
// and at its end; a spectator is asked no name and told they watch; the
// lobby's "Your seats" marks finished games; the new-table form offers the
// computer players weakest first; a list of moves that scrolls says so,
// and the log shows whole lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, createTable, waitPly, atPly, isOver, until, WAIT } from './harness.mjs';

const live = useServerAndBrowser();

const visible = (page, sel) => page.locator(sel).isVisible();

/** Plays the first move the list offers, once the page may move. */
async function playFirst(page) {
  await page.locator('#t-turn.mine').waitFor({ timeout: WAIT });
  await page.locator('#t-legal button.move:not(:disabled)').first().click();
}

test('an invitation, notices that last until the game goes on, and finished seats', { timeout: 90000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'nim/beginner-2-3', seats: ['person'], listed: true });
  const link = await ann.page.inputValue('#invite-2');

  // A friend with no name yet: told they are invited, to what, and by whom.
  const bob = await openPage(live.browser, live.server, { hash: link.slice(live.server.url.length) });
  await bob.page.locator('#name-box').waitFor({ timeout: WAIT });
  assert.match(await bob.page.textContent('#name-why'), /^You are invited to a table: say your name to sit down\./);
  await bob.page.waitForFunction(() => /^Invited to Nim · Beginner 2-3$/.test(document.querySelector('#t-title').textContent), null, { timeout: WAIT });
  assert.match(await bob.page.textContent('#t-turn'), /^At the table: Ann \(seat 1\)\. Seat 2 waits for you\. Say your name above to sit down\.$/);
  assert.equal(await visible(bob.page, '#t-panel'), false, 'no empty panel before there is a table to show');
  await bob.page.fill('#name-input', 'Bob');
  await bob.page.click('#name-box button[type=submit]');
  await waitPly(bob.page, 0);
  assert.equal(await visible(bob.page, '#name-box'), false);
  assert.ok(await visible(bob.page, '#t-panel'));

  // A take-back: both are told; one's own next move puts the notice away.
  await playFirst(ann.page);
  await waitPly(bob.page, 1);
  await ann.page.click('#a-takeback');
  await bob.page.locator('#t-takeback button:has-text("Accept")').click();
  await atPly(ann.page, 0);
  await atPly(bob.page, 0);
  for (const p of [ann.page, bob.page]) {
    await p.waitForFunction(() => document.querySelector('#t-notice').textContent === 'Moves taken back: the game is at move 1 again.', null, { timeout: WAIT });
  }
  await playFirst(ann.page);
  await atPly(ann.page, 1);
  assert.equal(await visible(ann.page, '#t-notice'), false, 'gone at her next move');
  // Then to the end: no notice outlives the game.
  const pages = [ann.page, bob.page];
  for (let i = 1; i < 12 && !(await isOver(ann.page)); i++) {
    await playFirst(pages[i % 2]);
    await atPly(pages[(i + 1) % 2], i + 1);
  }
  await ann.page.locator('#t-result').waitFor({ timeout: WAIT });
  await bob.page.locator('#t-result').waitFor({ timeout: WAIT });
  for (const p of pages) assert.equal(await visible(p, '#t-notice'), false, 'no notice at the end');

  // A rematch turns the seats: each is told their new seat and colour.
  await ann.page.click('#a-rematch');
  await bob.page.waitForFunction(() => /Ann asks for a rematch/.test(document.querySelector('#t-takeback').textContent), null, { timeout: WAIT });
  await bob.page.click('#a-rematch');
  for (const p of pages) await p.waitForFunction((old) => !location.hash.includes(old), table, { timeout: WAIT });
  await atPly(ann.page, 0);
  await atPly(bob.page, 0);
  assert.equal((await ann.page.textContent('#t-notice')).trim(), 'A new game: you now play second, in orange.');
  assert.equal((await bob.page.textContent('#t-notice')).trim(), 'A new game: you now play first, in sky blue.');
  await playFirst(bob.page);
  await atPly(bob.page, 1);
  assert.equal(await visible(bob.page, '#t-notice'), false, 'gone at his first move');

  // Leaving: the lobby says so once, and marks the first game finished.
  await bob.page.click('#a-leave');
  await bob.page.locator('#lobby').waitFor({ timeout: WAIT });
  assert.match(await bob.page.textContent('#banner'), /^You left the table\./);
  const items = bob.page.locator('#mine-list li.table-item');
  assert.equal(await items.count(), 2);
  assert.equal(await items.nth(0).locator('.tag').count(), 0, 'the game on comes first, unmarked');
  assert.equal(await items.nth(1).locator('.tag').textContent(), 'finished');
  assert.equal(await items.nth(1).locator('a').textContent(), 'See how it ended');
  assert.equal(await items.nth(1).locator('button').textContent(), 'Forget');
  await items.nth(0).locator('a').click();
  await waitPly(bob.page, 1);
  assert.equal(await visible(bob.page, '#banner'), false, 'the news of leaving is gone at the next table');

  assert.deepEqual(ann.problems, []);
  assert.deepEqual(bob.problems, []);
});

test('a spectator is asked no name and is told they are watching', { timeout: 60000 }, async () => {
  const ann = await openPage(live.browser, live.server, { name: 'Ann' });
  const table = await createTable(ann.page, { level: 'nim/traditional-3-4-5', seats: ['random'], listed: true });
  const sam = await openPage(live.browser, live.server, {});
  await sam.page.locator('#name-box').waitFor({ timeout: WAIT });
  assert.equal(await sam.page.textContent('#me-label'), 'No name yet');
  assert.equal(await sam.page.textContent('#me-edit'), 'Choose a name');
  const watch = sam.page.locator(`#tables-list a[href="#watch=${table}"]`);
  await watch.waitFor({ timeout: WAIT });
  await watch.click();
  await waitPly(sam.page, 0);
  assert.equal(await visible(sam.page, '#name-box'), false, 'no name asked of a spectator');
  assert.ok(await visible(sam.page, '#t-watching'));
  assert.equal(await sam.page.textContent('#t-watching'), 'You are watching');
  assert.match(await sam.page.textContent('#t-turn'), /^Ann to move\.$/);
  // A seat's page says no such thing.
  assert.equal(await visible(ann.page, '#t-watching'), false);
  assert.deepEqual(ann.problems, []);
  assert.deepEqual(sam.problems, []);
});

test('the new-table form offers the computer players weakest first', { timeout: 60000 }, async () => {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann' });
  await page.locator('#new-level option').first().waitFor({ state: 'attached', timeout: WAIT });
  const ladder = ['newcomer', 'beginner', 'casual', 'strong', 'best'];
  for (const game of ['Nim', 'Mancala', 'Robots', 'RussianBank']) {
    await page.selectOption('#new-game', game);
    const sel = await page.$eval('#new-seat-2', (s) => ({
      value: s.value,
      groups: [...s.querySelectorAll('optgroup')].map((g) => ({ label: g.label, names: [...g.children].map((o) => o.value) })),
      first: s.options[0].value,
      plays: s.parentElement.querySelector('.plays').textContent,
    }));
    assert.equal(sel.first, 'person', game);
    assert.equal(sel.groups.length, 2, game);
    assert.deepEqual(sel.groups[0], { label: 'Computer, weakest first', names: ladder }, game);
    assert.equal(sel.groups[1].label, 'Other agents', game);
    assert.ok(sel.groups[1].names.includes('random') && !sel.groups[1].names.some((n) => ladder.includes(n)), game);
    assert.equal(sel.value, 'beginner', `${game}: the easiest is offered first`);
    assert.ok(sel.plays.length > 10, `${game}: what it plays like is said`);
  }
  assert.deepEqual(problems, []);
});

test('a list of moves shows all or says it scrolls; the log shows whole lines', { timeout: 90000 }, async () => {
  const { page, problems } = await openPage(live.browser, live.server, { name: 'Ann' });
  // Twelve moves: all in view, nothing to scroll.
  await createTable(page, { level: 'nim/traditional-3-4-5', seats: ['random'] });
  await page.locator('#t-legal button.move').first().waitFor({ timeout: WAIT });
  const nim = await page.$eval('#t-legal', (l) => ({ n: l.childElementCount, scrolls: l.scrollHeight > l.clientHeight + 1 }));
  assert.deepEqual(nim, { n: 12, scrolls: false });
  assert.equal(await visible(page, '#t-legal-more'), false);

  // Hundreds: the list waits to be opened, then says there are more below.
  await page.goto(`${live.server.url}#`);
  await createTable(page, { level: 'robots/09-swap-puzzle', seats: ['random'] });
  const sum = await page.textContent('#t-legal-sum');
  const total = Number(/\((\d+)\)/.exec(sum)[1]);
  assert.ok(total > 40, sum);
  await page.click('#t-legal-sum');
  await page.locator('#t-legal-more').waitFor({ timeout: WAIT });
  assert.equal(await page.textContent('#t-legal-more'), `${total} moves: scroll the list for more.`);
  await page.$eval('#t-legal', (l) => { l.scrollTop = l.scrollHeight; });
  await page.locator('#t-legal-more').waitFor({ state: 'hidden', timeout: WAIT });

  // A long log, scrolled to its newest move: no half line at its top.
  await page.goto(`${live.server.url}#`);
  await createTable(page, { level: 'mancala/kalah-6-4', seats: ['random'] });
  for (let i = 0; i < 40; i++) {
    await page.waitForFunction(() => !document.querySelector('#t-result').hidden
      || (document.querySelector('#t-turn.mine') && document.querySelector('#t-legal button.move:not(:disabled)')), null, { timeout: WAIT });
    if (await isOver(page) || (await page.locator('#t-log li').count()) >= 16) break;
    const before = Number(await page.evaluate(() => document.querySelector('#table').dataset.ply));
    await page.locator('#t-legal button.move').first().click();
    await waitPly(page, before + 1);
  }
  const moves = await page.locator('#t-log li').count();
  assert.equal(await page.textContent('#t-log-h'), `Moves (${moves})`);
  const fit = await until(() => page.$eval('#t-log', (l) => {
    const box = l.getBoundingClientRect();
    // A line cut shows more than a sliver of itself, and not all of it.
    const cut = [...l.children].map((li) => li.getBoundingClientRect()).filter((r) => {
      const seen = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
      return seen > 2 && seen < r.height - 2;
    });
    return { scrolls: l.scrollHeight > l.clientHeight + 1, atEnd: l.scrollHeight - l.scrollTop - l.clientHeight <= 1, cut: cut.length };
  }).then((v) => (v.atEnd ? v : null)), { what: 'the log scrolled to its end' });
  assert.ok(fit.scrolls, `the log is long enough to scroll (${moves} moves)`);
  assert.equal(fit.cut, 0, 'no line is cut at the top');
  assert.deepEqual(problems, []);
});
