// Issue 29: a widget trimmed to one quota type (`quota=`) or one chart of the
// simulation panel (`chart=`), a bad value of either named in the widget, and
// the cluster panel in an MkDocs Material content column (about 720 px) and
// on a phone, with nothing clipped. Against the release build, the docs page
// on an origin of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, artifacts } from './harness.mjs';

let playground, docs, browser, docsDir;

// A producer and a consumer of tenant-a, each with a byte-rate quota, on 3 brokers.
const TEXT = `kafka-configs.sh --alter --add-config 'producer_byte_rate=2000000,consumer_byte_rate=1000000' --entity-type users --entity-name tenant-a
connection: name=writer listener=SASL_SSL user=tenant-a client.id=writer
connection: name=reader listener=SASL_SSL user=tenant-a client.id=reader
brokers: 3 quota.window.num=2
topic: orders partitions=3 preload.records=30000 preload.record.size=1000
producer: connection=writer records=30000 record.size=1000 acks=1
consumer: connection=reader records=30000
run: horizon_ms=30000`;

// The operator's cluster of issue 29: 6 brokers, a topic led by each.
const SIX = TEXT.replace('brokers: 3', 'brokers: 6').replace('partitions=3', 'partitions=6');

/** A docs page of widgets: `attrs` is each element's attributes. */
function page(widgets, { material = false, theme = 'light', text = TEXT } = {}) {
  const body = widgets.map((attrs) => `<kafka-quota-playground ${attrs}>\n<pre>\n${text}\n</pre>\n</kafka-quota-playground>`).join('\n<p>Between the widgets.</p>\n');
  // MkDocs Material's layout: a sidebar and a content column of about 720 px
  // (.md-content__inner), with its palette on <body>.
  const css = material
    ? `body { margin: 0; font: 16px/1.6 Roboto, system-ui, sans-serif; }
       .md-grid { display: flex; max-width: 61rem; margin: 0 auto; }
       .md-sidebar { width: 12.1rem; flex: none; }
       .md-content { flex: 1; min-width: 0; max-width: 100%; }
       .md-content__inner { margin: 0 0.8rem 1.2rem; padding-top: 0.6rem; }
       @media (max-width: 76.2344em) { .md-sidebar { display: none; } }
       body[data-md-color-scheme=slate] { background: #1e2129; color: #e2e4e9; }`
    : 'body { font: 16px/1.6 system-ui, sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem; }';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,"><style>${css}</style>
    <script src="${playground.url}kafka-quota-embed.js" defer></script></head>
    <body data-md-color-scheme="${theme === 'dark' ? 'slate' : 'default'}"><div class="md-grid"><nav class="md-sidebar">Navigation</nav>
    <main class="md-content"><article class="md-content__inner md-typeset"><h1>Client quotas</h1>${body}</article></main></div></body></html>`;
}

before(async () => {
  playground = await serve();
  docsDir = await mkdtemp(join(tmpdir(), 'kqp-trim-'));
  docs = await serve(docsDir, '/docs/');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await docs?.close();
  await playground?.close();
  await rm(docsDir, { recursive: true, force: true });
});

/** Opens docs page `name` (written from `html`) and returns it with its errors. */
async function open(name, html, options = {}) {
  await writeFile(join(docsDir, name), html);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await p.goto(docs.url + name);
  return { context, page: p, errors };
}

/** Widget `i` once rendered, with its run there: its frame and iframe. */
async function ready(p, i) {
  const w = p.locator('kafka-quota-playground').nth(i);
  await w.scrollIntoViewIfNeeded();
  await p.waitForFunction((i) => document.querySelectorAll('kafka-quota-playground')[i].dataset.state === 'ready', i, { timeout: 30000 });
  const iframe = (await w.evaluateHandle((el) => el.shadowRoot.querySelector('iframe'))).asElement();
  const frame = await iframe.contentFrame();
  await frame.waitForSelector('body[data-first-render-ms]', { timeout: 30000 });
  // The panels that show the run compute it at once (the others never).
  if (['simulation', 'cluster', 'answer'].includes(await frame.getByTestId('embed').getAttribute('data-panel'))) {
    await frame.waitForFunction(() => document.body.dataset.simRev === document.body.dataset.revision, null, { timeout: 30000 });
  }
  return { w, frame, iframe };
}

/** Saves widget `i`'s screenshot under tests/e2e/artifacts/ (not committed). */
async function widgetShot(p, i, name) {
  await mkdir(artifacts, { recursive: true });
  const w = p.locator('kafka-quota-playground').nth(i);
  await w.scrollIntoViewIfNeeded();
  await w.screenshot({ path: join(artifacts, `${name}.png`) });
}

/** The visible charts of a frame, by name (`chart-rate` -> `rate`). */
const shownCharts = (frame) => frame.evaluate(() => [...document.querySelectorAll('svg.chart')]
  .filter((s) => s.getClientRects().length > 0).map((s) => s.dataset.testid.replace('chart-', '')));

test('quota= keeps one quota type in the answer, the ladders, the cluster budgets and the simulation charts', async () => {
  const { context, page: p, errors } = await open('quota.html', page([
    'panel="answer" quota="consumer_byte_rate"',
    'panel="resolution" quota="producer_byte_rate"',
    'panel="cluster" quota="consumer_byte_rate"',
    'panel="simulation" quota="consumer_byte_rate"',
    'panel="answer" quota="connection_creation_rate"',
    'panel="simulation" quota="request_percentage"',
  ]));
  // The answer: each connection's Fetch clause, no Produce clause.
  let { frame, iframe } = await ready(p, 0);
  assert.match(await iframe.getAttribute('src'), /\?embed=answer&readonly&theme=light&quota=consumer_byte_rate#text=/);
  assert.equal(await frame.getByTestId('embed').getAttribute('data-quota'), 'consumer_byte_rate');
  let clauses = await frame.locator('.answer-clause').allInnerTexts();
  assert.equal(clauses.length, 2, clauses.join(' | '));
  for (const c of clauses) assert.match(c, /^Fetch: 1 MB\/s/);
  assert.equal(await frame.getByTestId('embed-warning').count(), 0);
  // The ladders: the produce ladders only.
  ({ frame } = await ready(p, 1));
  const sections = await frame.locator('section.qtype').evaluateAll((s) => s.map((e) => e.getAttribute('aria-label')));
  assert.equal(sections.length, 1, sections.join(', '));
  assert.match(sections[0], /producer_byte_rate/);
  assert.equal(await frame.locator('[data-testid^="ladder-"][data-testid$="-Produce"]').count(), 1);
  assert.equal(await frame.locator('[data-testid^="ladder-"][data-testid$="-Fetch"]').count(), 0);
  // The cluster view: the Fetch budgets per broker only.
  ({ frame } = await ready(p, 2));
  const rows = await frame.locator('tr[data-mbean]').evaluateAll((r) => r.filter((e) => e.getClientRects().length).map((e) => e.dataset.mbean));
  assert.ok(rows.length >= 1, 'a fetch budget row');
  for (const r of rows) assert.match(r, /^kafka\.server:type=Fetch,/);
  assert.ok(await frame.locator('tr[data-mbean^="kafka.server:type=Produce,"]').count() >= 1, 'the produce rows are there, hidden');
  // The simulation: its charts show a Fetch budget.
  ({ frame } = await ready(p, 3));
  const charts = await shownCharts(frame);
  assert.ok(charts.includes('window') && charts.includes('rate'), charts.join(', '));
  assert.match(await frame.getByTestId('throttles').locator('caption').innerText(), /^Throttles of Fetch-tenant-a:/);
  // connection_creation_rate: the address's clause only.
  ({ frame } = await ready(p, 4));
  clauses = await frame.locator('.answer-clause').allInnerTexts();
  assert.equal(clauses.length, 2, clauses.join(' | '));
  for (const c of clauses) assert.match(c, /^Connections from /);
  // A type the run metered no budget of: said, and no other type's chart.
  ({ frame } = await ready(p, 5));
  assert.match(await frame.getByTestId('embed-trim-note').innerText(), /The run metered no request_percentage budget/);
  for (const i of [0, 1, 2, 3, 5]) await widgetShot(p, i, `embed-trim-quota-${i}-light`);
  assert.deepEqual((await shownCharts(frame)).filter((c) => c === 'rate' || c === 'window'), []);
  assert.equal(await frame.getByTestId('throttles').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('chart= shows one chart of the simulation panel with its player; each name works', async () => {
  const names = ['progress', 'buffer', 'window', 'rate'];
  const { context, page: p, errors } = await open('chart.html', page(names.map((c) => `panel="simulation" chart="${c}" quota="producer_byte_rate"`)));
  for (const [i, name] of names.entries()) {
    const { frame, iframe } = await ready(p, i);
    assert.match(await iframe.getAttribute('src'), new RegExp(`&quota=producer_byte_rate&chart=${name}#`));
    assert.deepEqual(await shownCharts(frame), [name], `chart=${name}`);
    // The player stays; the tables go.
    assert.ok(await frame.getByTestId('play').isVisible(), `chart=${name}: the player`);
    assert.equal(await frame.getByTestId('clients').isVisible(), false, `chart=${name}: the clients table`);
    assert.equal(await frame.locator('.perf').isVisible(), false, `chart=${name}: the perf-test view`);
    // The budget picker with the charts of one budget only.
    assert.equal(await frame.locator('#focus-sensor').isVisible(), name === 'window' || name === 'rate', `chart=${name}: the budget picker`);
    if (name === 'rate') assert.match(await frame.locator('#focus-sensor').inputValue(), /^\d+$/);
    await widgetShot(p, i, `embed-trim-chart-${name}-light`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad quota= or chart= value is named in the widget with the values it takes, and the panel shows whole', async () => {
  const { context, page: p, errors } = await open('bad.html', page([
    'panel="simulation" chart="pie"',
    'panel="answer" quota="bytes"',
    'panel="answer" chart="rate"',
  ]), { colorScheme: 'dark' });
  let { frame } = await ready(p, 0);
  const warning = await frame.getByTestId('embed-warning').innerText();
  assert.match(warning, /'pie' is not a chart; chart= takes one of progress \(records acknowledged or consumed\), buffer \(the producer's buffer\), window \(the quota window's samples\), rate \(the measured rate against the quota\)\. Showing every chart\./);
  assert.ok((await shownCharts(frame)).length >= 3, 'every chart shows');
  assert.ok(await frame.getByTestId('throttles').isVisible());
  ({ frame } = await ready(p, 1));
  assert.match(await frame.getByTestId('embed-warning').innerText(),
    /'bytes' is not a quota type; quota= takes one of producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate, connection_creation_rate\. Showing every quota type\./);
  assert.ok((await frame.locator('.answer-clause').count()) >= 8, 'every clause shows');
  ({ frame } = await ready(p, 2));
  assert.match(await frame.getByTestId('embed-warning').innerText(), /chart=rate picks a chart of the simulation panel; the answer panel is shown whole\./);
  for (const i of [0, 1, 2]) await widgetShot(p, i, `embed-trim-bad-${i}-dark`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a fence sets quota and chart on its "# embed:" line, and the plain iframe takes them as parameters', async () => {
  await writeFile(join(docsDir, 'fence.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${playground.url}kafka-quota-embed.js" defer></script></head><body>
    <pre class="kafka-quota"><code># embed: panel=simulation chart=window quota=consumer_byte_rate
${TEXT}</code></pre></body></html>`);
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const p = await context.newPage();
  await p.goto(docs.url + 'fence.html');
  const { frame, iframe } = await ready(p, 0);
  assert.match(await iframe.getAttribute('src'), /\?embed=simulation&readonly&theme=light&quota=consumer_byte_rate&chart=window#text=/);
  assert.deepEqual(await shownCharts(frame), ['window']);
  // The budget picker offers the trimmed key's budgets only.
  const offered = await frame.locator('#focus-sensor option').allInnerTexts();
  assert.ok(offered.length >= 1, 'a fetch budget offered');
  for (const o of offered) assert.match(o, /^kafka\.server:type=Fetch,/);
  await p.goto(`${playground.url}?embed=resolution&quota=request_percentage#text=${encodeURIComponent(TEXT)}`);
  await p.waitForSelector('body[data-first-render-ms]');
  await p.locator('section.qtype').first().waitFor();
  assert.deepEqual(await p.locator('section.qtype').evaluateAll((s) => s.map((e) => e.getAttribute('aria-label'))).then((l) => l.length), 1);
  await context.close();
});

// The cluster panel in MkDocs Material's content column and on a phone:
// every column of its tables reachable, nothing cut off.
for (const [width, theme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']]) {
  test(`the cluster panel fits a Material content column (${width} px window, ${theme})`, async () => {
    const { context, page: p, errors } = await open(`cluster-${width}-${theme}.html`, page(['panel="cluster" theme="auto"', 'panel="cluster" theme="auto" readonly="false"'], { material: true, theme, text: SIX }),
      { viewport: { width, height: 900 } });
    for (const i of [0, 1]) {
      const { frame, iframe } = await ready(p, i);
      const frameWidth = (await iframe.boundingBox()).width;
      if (width === 1280) assert.ok(frameWidth >= 680 && frameWidth <= 760, `the content column is ${frameWidth} px`);
      await frame.getByTestId('cluster-view').waitFor();
      const m = await frame.evaluate(() => {
        const panel = document.getElementById('cluster');
        const over = (e) => e.scrollWidth - e.clientWidth;
        // Every element wider than its box that is not a scroll box of its own.
        const clipped = [...panel.querySelectorAll('*')].filter((e) => {
          if (e.getClientRects().length === 0 || over(e) <= 1) return false;
          // The budgets' header row, kept for screen readers only (1 px, clipped).
          if (e.closest('thead') && e.closest('thead').getBoundingClientRect().width <= 1) return false;
          const s = getComputedStyle(e);
          return !(s.overflowX === 'auto' || s.overflowX === 'scroll');
        }).map((e) => `${e.tagName.toLowerCase()}.${e.className} (${e.scrollWidth} > ${e.clientWidth})`);
        // Anything drawn past the panel's right edge.
        const right = panel.getBoundingClientRect().right;
        const past = [...panel.querySelectorAll('*')].filter((e) => {
          if (e.getClientRects().length === 0 || e.closest('.table-wrap')) return false;
          return e.getBoundingClientRect().right > right + 1;
        }).map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
        // A scroll box must reach its last column.
        const boxes = [...panel.querySelectorAll('.table-wrap')].filter((e) => e.getClientRects().length).map((e) => {
          e.scrollLeft = e.scrollWidth;
          const last = e.querySelector('tr:last-child > :last-child');
          const ok = !last || last.getBoundingClientRect().right <= e.getBoundingClientRect().right + 1;
          e.scrollLeft = 0;
          return ok;
        });
        // The budgets wrap: every broker's cell in view without scrolling.
        const budgets = panel.querySelector('.table-wrap:has(.cluster-budgets)');
        return { doc: document.documentElement.scrollWidth - window.innerWidth, panel: over(panel), clipped, past, boxes, budgets: over(budgets) };
      });
      assert.ok(m.budgets <= 1, `widget ${i}: the budgets table scrolls by ${m.budgets} px`);
      assert.ok(m.doc <= 0, `widget ${i}: the frame scrolls sideways by ${m.doc} px`);
      assert.ok(m.panel <= 1, `widget ${i}: the panel is ${m.panel} px wider than its box`);
      assert.deepEqual(m.clipped, [], `widget ${i}`);
      assert.deepEqual(m.past, [], `widget ${i}`);
      assert.ok(m.boxes.length >= 2 && m.boxes.every(Boolean), JSON.stringify(m.boxes));
    }
    for (const i of [0, 1]) await widgetShot(p, i, `embed-cluster-material-${width}-${theme}-${i}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
