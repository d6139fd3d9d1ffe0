// The page's JavaScript within its budget (issue 41: under 150 KB
// minified): every module of web/public minified by esbuild, summed. A
// page loads app.js, net.js and one game's board of them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { PUBLIC } from './harness.mjs';

const BUDGET = 150 * 1024;

test('all the page\'s JavaScript, minified, is under 150 KB', () => {
  const files = readdirSync(PUBLIC).filter((f) => f.endsWith('.js'));
  assert.ok(files.includes('app.js'));
  const sizes = Object.fromEntries(
    files.map((f) => {
      const code = readFileSync(path.join(PUBLIC, f), 'utf8');
      return [f, transformSync(code, { minify: true, format: 'esm', loader: 'js' }).code.length];
    }),
  );
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  assert.ok(total < BUDGET, `${total} bytes of minified JavaScript: ${JSON.stringify(sizes)}`);
  console.log(`minified: ${total} bytes ${JSON.stringify(sizes)}`);
});
