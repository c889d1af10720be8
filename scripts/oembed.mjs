// Makes the build's oEmbed description absolute for the address it is
// published at (a static file cannot know it; docs/embedding.md, "oEmbed"):
//   node scripts/oembed.mjs https://quotas.example.com/ [dist]
// rewrites dist/oembed.json (provider_url, the iframe's src) and the
// discovery <link> of dist/index.html to that address.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const [base, dist = 'dist'] = process.argv.slice(2);
let url;
try {
  url = new URL(base);
  if (!/^https?:$/.test(url.protocol)) throw new Error('not http(s)');
} catch {
  console.error(`usage: node scripts/oembed.mjs <https://host/path/> [dist]: '${base ?? ''}' is not an http(s) address.`);
  process.exit(2);
}
if (!url.pathname.endsWith('/')) url.pathname += '/';
const abs = (rel) => new URL(rel, url).href;

// Both files are read and checked before either is written: a failure
// leaves dist/ as it was.
const jsonPath = join(dist, 'oembed.json');
const htmlPath = join(dist, 'index.html');
const o = JSON.parse(await readFile(jsonPath, 'utf8'));
const html = await readFile(htmlPath, 'utf8');
// The discovery <link> in any attribute order, its href quoted or not (a
// release build's index.html is minified: `href=oembed.json`).
const discovery = /<link\b[^>]*\btype=["']?application\/json\+oembed\b[^>]*>/;
const href = /\bhref=(?:"[^"]*"|'[^']*'|[^\s>]+)/;
if (!discovery.test(html) || !href.test(html.match(discovery)[0])) { console.error(`${htmlPath} has no oEmbed discovery <link>.`); process.exit(1); }
o.provider_url = abs(o.provider_url);
o.html = o.html.replace(/src="([^"]*)"/, (_, src) => `src="${abs(src.replaceAll('&amp;', '&')).replaceAll('&', '&amp;')}"`);
await writeFile(jsonPath, JSON.stringify(o, null, 2) + '\n');
await writeFile(htmlPath, html.replace(discovery, (link) => link.replace(href, `href="${abs('oembed.json')}"`)));
console.log(`oembed.json and index.html now point at ${url.href}`);
