// The playground figures of BENCHMARKS.md: bytes shipped (gzip -9), time from
// navigation to the first complete render, and time to recompute after an
// edit of the lab's 30 MB scenario, in headless Chromium against the release
// build. Run: node tests/e2e/bench-playground.mjs (KQP_DIST for another build).
import { readdir, readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { serve, launch, dist } from './harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// Every wasm, JS and CSS file of the build, compressed. The page fetches the
// main module's files at load; the import/export worker's files
// (quota-interchange-worker*, interchange-worker-loader.js) only when the
// Import and export panel comes into view or is used: they are counted apart.
// kafka-quota-embed.js is fetched by documentation pages that embed the
// playground, never by the page itself: it is reported on its own.
const files = {};
for (const f of await readdir(dist)) {
  const ext = extname(f);
  if (!['.wasm', '.js', '.css'].includes(ext) || f === 'kafka-quota-embed.js') continue;
  const body = await readFile(join(dist, f));
  files[f] = {
    ext,
    worker: /interchange-worker/.test(f),
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const [label, worker] of [['page load (fetched before any interaction)', false], ['import/export worker (fetched when its panel comes into view)', true]]) {
  const group = Object.entries(files).filter(([, f]) => f.worker === worker);
  const sum = (k) => group.reduce((a, [, f]) => a + f[k], 0);
  console.log(`${label}: ${kib(sum('gzip'))} gzip -9 (${sum('gzip')} bytes), ${kib(sum('brotli'))} brotli -q 11`);
  for (const [name, f] of group) console.log(`  ${name}: ${kib(f.raw)} raw, ${kib(f.gzip)} gzip`);
}

{
  const body = await readFile(join(dist, 'kafka-quota-embed.js'));
  const gz = gzipSync(body, { level: 9 }).length;
  console.log(`embed script (fetched by docs pages, not by the playground): kafka-quota-embed.js ${body.length} bytes raw, ${gz} bytes gzip -9, ${brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length} bytes brotli -q 11 (goal: under 5 KB gzip)`);
}

const server = await serve();
const browser = await launch();
const first = [];
const fetched = new Set();
for (let i = 0; i < 7; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on('requestfinished', (r) => fetched.add(new URL(r.url()).pathname.slice(1)));
  await page.goto(server.url);
  await page.waitForSelector('body[data-first-render-ms]');
  first.push(Number(await page.getAttribute('body', 'data-first-render-ms')));
  await page.waitForTimeout(500);
  await ctx.close();
}
const loaded = Object.keys(files).filter((f) => fetched.has(f));
console.log(`files the page fetched by first render + 0.5 s: ${loaded.join(', ')} = ${kib(loaded.reduce((a, f) => a + files[f].gzip, 0))} gzip`);
console.log(`first complete render after navigation: median ${median(first).toFixed(0)} ms (runs: ${first.map((x) => x.toFixed(0)).join(', ')})`);

// Edits of the default scenario (the lab's 30 MB producer under a 2 MB/s user quota).
const ctx = await browser.newContext();
const page = await ctx.newPage();
await page.goto(server.url);
await page.waitForSelector('body[data-first-render-ms]');
await page.locator('details.setup > summary').click();
const records = page.locator('#w0-records');
const quota = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
const recompute = { records: [], quota: [] };
for (let i = 0; i < 12; i++) {
  for (const [name, field, value] of [['records', records, String(30001 - (i % 2))], ['quota', quota, String(2000001 + i)]]) {
    const rev = Number(await page.getAttribute('body', 'data-revision'));
    await field.fill(value);
    await page.waitForFunction((r) => Number(document.body.dataset.revision) > r, rev);
    recompute[name].push(Number(await page.getAttribute('body', 'data-recompute-ms')));
  }
}
for (const [name, xs] of Object.entries(recompute)) {
  console.log(`recompute after editing ${name}: median ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} edits; analysis + simulation + render + DOM update)`);
}
// Cursor moves (what one playback frame costs): scrub over the run.
const frames = [];
const endMs = Number(await page.getByTestId('scrubber').getAttribute('max'));
for (let i = 1; i <= 20; i++) {
  const to = Math.round((endMs * i) / 21);
  await page.getByTestId('scrubber').fill(String(to));
  await page.waitForFunction((t) => document.querySelector('[data-testid="clock"]').dataset.ms === String(t), to);
  frames.push(Number(await page.getAttribute('body', 'data-frame-ms')));
}
console.log(`render after a cursor move: median ${median(frames).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms (20 positions)`);
console.log(`(the edited scenario: ${await page.getByTestId('clock').innerText()} of simulated time)`);
await browser.close();
await server.close();
