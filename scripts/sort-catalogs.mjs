// Rewrites the web client's catalogs (clients/web/lang/*.json) sorted by key, two spaces in,
// as the catalog check wants them: run after adding keys.
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';

const dir = new URL('../clients/web/lang/', import.meta.url);
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const url = new URL(file, dir);
  const entries = Object.entries(JSON.parse(readFileSync(url, 'utf8')));
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  writeFileSync(url, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
}
