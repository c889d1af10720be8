// The playground figures of BENCHMARKS.md: bytes shipped (gzip -9), time from
// navigation to the first complete render, time to recompute after an edit of
// the lab's 30 MB scenario, and typing into a quota value with 100 producers
// over 3 brokers loaded (the longest main-thread task, the time from the last
// keystroke to the updated run, and what the page fetched), in headless
// Chromium against the release build. Run: node tests/e2e/bench-playground.mjs
// (KQP_DIST for another build; it also measures builds from before the
// simulation worker).
import { readdir, readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { serve, launch, dist, permalink } from './harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// Every wasm, JS and CSS file of the build, compressed. The page fetches the
// main module's files at load; the import/export worker's files
// (quota-interchange-worker*, interchange-worker-loader.js) only when the
// Import and export panel comes into view or is used: they are counted apart.
// kafka-quota-embed.js is fetched by documentation pages that embed the
// playground, never by the page itself: it is reported on its own.
// The simulation worker's files (quota-sim-worker*, sim-worker-loader.js)
// are fetched when the Simulation or Cluster and time panel comes near the
// viewport, and sim-main-thread.js only without a Worker: counted apart too.
const files = {};
for (const f of await readdir(dist)) {
  const ext = extname(f);
  if (!['.wasm', '.js', '.css'].includes(ext) || f === 'kafka-quota-embed.js') continue;
  const body = await readFile(join(dist, f));
  files[f] = {
    ext,
    worker: /interchange-worker|sim-worker|sim-main-thread/.test(f),
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const [label, worker] of [['page load (fetched before any interaction)', false], ['workers (fetched when their panels come near the viewport: import/export, simulation)', true]]) {
  const group = Object.entries(files).filter(([, f]) => f.worker === worker);
  const sum = (k) => group.reduce((a, [, f]) => a + f[k], 0);
  console.log(`${label}: ${kib(sum('gzip'))} gzip -9 (${sum('gzip')} bytes), ${kib(sum('brotli'))} brotli -q 11`);
  for (const [name, f] of group) console.log(`  ${name}: ${kib(f.raw)} raw, ${kib(f.gzip)} gzip`);
}

{
  // index.html: in a release build it carries the prerendered first screen.
  const body = await readFile(join(dist, 'index.html'));
  console.log(`index.html (with the prerendered first screen): ${body.length} bytes raw, ${gzipSync(body, { level: 9 }).length} bytes gzip -9`);
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
// The first complete render over Lighthouse's mobile link (1.6 Mbit/s down,
// 750 kbit/s up, 150 ms round trip; Chromium's network emulation), the
// files served gzip -9 as a static host would, with the bytes that crossed
// the link by then (encoded, headers included).
{
  const gz = await serve(dist, '/', { gzip: true });
  const slow = [];
  const sent = [];
  // The first contentful paint: with the prerendered first screen
  // (src/bin/prerender.rs) the default scenario's Answer is on screen
  // then, inert until the module's first render.
  const painted = [];
  for (let i = 0; i < 5; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
    });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
    await page.goto(gz.url);
    await page.waitForSelector('body[data-first-render-ms]', { timeout: 60000 });
    slow.push(Number(await page.getAttribute('body', 'data-first-render-ms')));
    sent.push(bytes);
    painted.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
    await ctx.close();
  }
  await gz.close();
  console.log(`first complete render over a 1.6 Mbit/s, 150 ms link (gzip served): median ${median(slow).toFixed(0)} ms (runs: ${slow.map((x) => x.toFixed(0)).join(', ')}); bytes over the link by then: median ${median(sent)} (goal: 2,500 ms; 1,500 ms)`);
  console.log(`first contentful paint over that link (the prerendered first screen, inert until the render above): median ${median(painted).toFixed(0)} ms (runs: ${painted.map((x) => x.toFixed(0)).join(', ')})`);
}

// The first run on screen when the Simulation panel is scrolled to as soon as
// the page has rendered (the simulation worker's module fetched, compiled and
// run): ms after navigation, when <body data-sim-rev> turns 1.
const firstRun = [];
for (let i = 0; i < 7; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    window.__run = 0;
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => { if (document.body.dataset.simRev === '1' && !window.__run) window.__run = performance.now(); })
        .observe(document.body, { attributeFilter: ['data-sim-rev'] });
    });
  });
  await page.goto(server.url);
  await page.waitForSelector('body[data-first-render-ms]');
  await page.evaluate(() => document.getElementById('simulation').scrollIntoView());
  await page.waitForFunction(() => window.__run > 0, undefined, { timeout: 30000 });
  firstRun.push(await page.evaluate(() => window.__run));
  await ctx.close();
}
console.log(`first run on screen, the Simulation panel scrolled to at first render: median ${median(firstRun).toFixed(0)} ms after navigation (runs: ${firstRun.map((x) => x.toFixed(0)).join(', ')})`);

// Edits of the default scenario (the lab's 30 MB producer under a 2 MB/s user quota).
const ctx = await browser.newContext();
const page = await ctx.newPage();
await page.goto(server.url);
await page.waitForSelector('body[data-first-render-ms]');
// The click scrolls to the Simulation panel: the page starts the simulation
// worker there and the first run arrives.
await page.locator('details.setup > summary').click();
await page.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, undefined, { timeout: 30000 });
// When the last input event of an edit was dispatched and when the run of the
// new revision reached the screen (<body data-sim-rev> changes after its render).
await page.evaluate(() => {
  window.__input = 0;
  window.__run = 0;
  document.addEventListener('input', () => { window.__input = performance.now(); }, true);
  new MutationObserver(() => { window.__run = performance.now(); }).observe(document.body, { attributeFilter: ['data-sim-rev'] });
});
const records = page.locator('#w0-records');
const quota = page.getByLabel('producer_byte_rate of users/tenant-a', { exact: true });
const recompute = { records: [], quota: [] };
const toRun = { records: [], quota: [] };
for (let i = 0; i < 12; i++) {
  for (const [name, field, value] of [['records', records, String(30001 - (i % 2))], ['quota', quota, String(2000001 + i)]]) {
    const rev = Number(await page.getAttribute('body', 'data-revision'));
    await field.fill(value);
    await page.waitForFunction((r) => Number(document.body.dataset.revision) > r && document.body.dataset.simRev === document.body.dataset.revision, rev);
    recompute[name].push(Number(await page.getAttribute('body', 'data-recompute-ms')));
    toRun[name].push(await page.evaluate(() => window.__run - window.__input));
  }
}
for (const [name, xs] of Object.entries(recompute)) {
  console.log(`recompute after editing ${name}: median ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} edits; the main thread's task: analysis + render + DOM update)`);
  const ys = toRun[name];
  console.log(`  edit to its run on screen: median ${median(ys).toFixed(1)} ms, max ${Math.max(...ys).toFixed(1)} ms (the worker's simulation, the transfer, decoding and the render of the run)`);
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
await ctx.close();

// Typing five characters into a quota value with 100 producers over 3 brokers
// loaded (tests/fixtures/bench): every main-thread task of 50 ms or more
// (PerformanceObserver 'longtask'), the time from the last keystroke to the
// run of the last revision on screen, and every transfer the page made.
const fixture = JSON.parse(await readFile(new URL('../fixtures/bench/100-clients-3-brokers.json', import.meta.url), 'utf8'));
const link = await permalink(fixture.scenario);
const typing = { longest: [], all: [], lastToRun: [], apply: [], frames: [], mainTask: [], transfers: null };
// The longest task (ms) of the page's main thread (CrRendererMain) in a
// Chromium trace.
function longestMainTask(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  if (!tasks.length) throw new Error('the trace holds no task of the page\'s main thread: the trace categories or event names changed');
  return tasks.reduce((m, e) => Math.max(m, e.dur / 1000), 0);
}
for (let run = 0; run < 5; run++) {
  const tctx = await browser.newContext();
  const tpage = await tctx.newPage();
  const transfers = [];
  tpage.on('requestfinished', async (r) => {
    const size = (await r.sizes().catch(() => null))?.responseBodySize ?? 0;
    transfers.push([new URL(r.url()).pathname.slice(1) || '(page)', size]);
  });
  await tpage.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  });
  await tpage.goto(`${server.url}#${link}`);
  await tpage.waitForSelector('body[data-first-render-ms]', { timeout: 60000 });
  // The Simulation panel brought near starts the worker (this build's page
  // fetches the simulator then); the first run arrives; back to the top.
  await tpage.evaluate(() => document.getElementById('simulation').scrollIntoView());
  await tpage.waitForFunction(() => (document.body.dataset.simRev ?? document.body.dataset.revision) === document.body.dataset.revision, undefined, { timeout: 60000 });
  await tpage.evaluate(() => window.scrollTo(0, 0));
  await tpage.waitForTimeout(1500);
  const field = tpage.getByLabel('producer_byte_rate of users/tenant-0', { exact: true });
  await field.click();
  await field.press('End');
  const rev = Number(await tpage.getAttribute('body', 'data-revision'));
  await tpage.evaluate(() => { window.__long = []; });
  // Every main-thread task, not only those of 50 ms or more that the
  // longtask observer reports: the renderer's RunTask trace events.
  await browser.startTracing(tpage, { categories: ['toplevel', 'devtools.timeline'] });
  await tpage.keyboard.type('12345', { delay: 100 });
  const last = await tpage.evaluate(() => performance.now());
  // A build with the worker marks the revision on screen (data-sim-rev);
  // before it, the run was part of each keystroke's render.
  await tpage.waitForFunction((want) => Number(document.body.dataset.simRev ?? document.body.dataset.revision) >= want
    && Number(document.body.dataset.revision) >= want, rev + 5, { timeout: 30000 });
  typing.lastToRun.push(await tpage.evaluate(() => performance.now()) - last);
  // The address bar's write (a task after the edit's) counts too.
  await tpage.waitForTimeout(400);
  typing.mainTask.push(longestMainTask(JSON.parse((await browser.stopTracing()).toString())));
  const tasks = await tpage.evaluate(() => window.__long);
  typing.all.push(tasks.map(Math.round));
  typing.longest.push(tasks.length ? Math.max(...tasks) : 0);
  const apply = await tpage.getAttribute('body', 'data-sim-apply-ms');
  if (apply) typing.apply.push(Number(apply));
  // One playback frame of this run (100 clients): 4 cursor moves.
  const end100 = Number(await tpage.getByTestId('scrubber').getAttribute('max'));
  for (let i = 1; i <= 4; i++) {
    const to = Math.round((end100 * i) / 5);
    await tpage.getByTestId('scrubber').fill(String(to));
    await tpage.waitForFunction((t) => document.querySelector('[data-testid="clock"]').dataset.ms === String(t), to);
    const frame = await tpage.getAttribute('body', 'data-frame-ms');
    if (frame === null) throw new Error('no <body data-frame-ms> after a cursor move');
    typing.frames.push(Number(frame));
  }
  if (run === 0) typing.transfers = transfers;
  await tctx.close();
}
console.log(`typing 5 characters into a quota value, 100 producers x 3 brokers: longest main-thread task median ${median(typing.longest).toFixed(0)} ms, max ${Math.max(...typing.longest).toFixed(0)} ms (0 = none of 50 ms or more; tasks per run: ${typing.all.map((t) => `[${t.join(', ')}]`).join(' ')})`);
console.log(`longest main-thread task of any length (trace RunTask, from the first keystroke to 400 ms after the updated run is on screen): median ${median(typing.mainTask).toFixed(1)} ms, max ${Math.max(...typing.mainTask).toFixed(1)} ms (runs: ${typing.mainTask.map((x) => x.toFixed(1)).join(', ')})`);
console.log(`last keystroke to the updated run on screen: median ${median(typing.lastToRun).toFixed(0)} ms (runs: ${typing.lastToRun.map((x) => x.toFixed(0)).join(', ')})`);
if (typing.apply.length) console.log(`showing the worker's run (render and DOM update of the Simulation panel): median ${median(typing.apply).toFixed(1)} ms, max ${Math.max(...typing.apply).toFixed(1)} ms`);
console.log(`render after a cursor move, 100 producers x 3 brokers (one playback frame): median ${median(typing.frames).toFixed(1)} ms, max ${Math.max(...typing.frames).toFixed(1)} ms (${typing.frames.length} moves)`);
const moved = typing.transfers.reduce((a, [, n]) => a + n, 0);
console.log(`transfers of the 100-producer page (load, worker start, typing): ${typing.transfers.length} requests, ${kib(moved)} as served (uncompressed): ${typing.transfers.map(([f, n]) => `${f} ${kib(n)}`).join(', ')}`);
await browser.close();
await server.close();
