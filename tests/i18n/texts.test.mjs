// No English a person reads is left in the web client's modules: every text comes from the
// catalogs (docs/translating.md). A literal that is not text but looks like it is marked
// with a comment `i18n-ignore` on its line, saying why.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {textsIn} from './texts.mjs';

const WEB = fileURLToPath(new URL('../../clients/web/', import.meta.url));

function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? modules(path) : name.endsWith('.js') ? [path] : [];
  });
}

test('no user-visible English left in the client\'s modules', () => {
  const left = modules(join(WEB, 'js')).flatMap((file) =>
    textsIn(readFileSync(file, 'utf8')).map(({line, text}) => `${relative(WEB, file)}:${line}: ${JSON.stringify(text)}`));
  assert.deepEqual(left, []);
});

test('index.html: every element with words takes them from the catalog', () => {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8').replace(/<(script|style|noscript)[\s\S]*?<\/\1>/g, '');
  const bare = [...html.matchAll(/<(\w+)([^>]*)>([^<]*\p{L}{2,}[^<]*)</gu)]
    .filter(([, tag, attrs, text]) => tag !== 'title' && text.trim() !== 'El Grande' && !/data-i18n=/.test(attrs))
    .map(([, tag, , text]) => `<${tag}>${text.trim()}`);
  assert.deepEqual(bare, []);
});

test('the lint sees text in each place it looks, and leaves keys, selectors and codes alone', () => {
  const src = [
    "import x from './words.js';",
    "h('p', {class: 'muted note', 'data-testid': 'x-y'}, 'Hello there');",
    "h('button', {'aria-label': `Play ${name}`}, t('lobby.play'));",
    "el.textContent = cond ? 'Waiting' : t('a.b');",
    "app.toast(`Saved ${n}`);",
    "const STATUS = 'Your move is saved.';",
    "if (kind === 'Some Code') run('Not text either');",
    "document.querySelector('.top-nav a');",
    "const note = 'Long words here'; // i18n-ignore: a test fixture",
  ].join('\n');
  assert.deepEqual(textsIn(src).map((f) => [f.line, f.text]), [
    [2, 'Hello there'], [3, 'Play {}'], [4, 'Waiting'], [5, 'Saved {}'], [6, 'Your move is saved.'],
  ]);
});
