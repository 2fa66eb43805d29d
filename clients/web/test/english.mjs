// The catalogs read from the files, and English spoken: the tests import this first, so the
// words they check are the catalog's.
import {readFile} from 'node:fs/promises';
import {setCatalogReader, useLanguage} from '../js/i18n.js';

export const LANG_DIR = new URL('../lang/', import.meta.url);
setCatalogReader(async (code) => JSON.parse(await readFile(new URL(`${code}.json`, LANG_DIR), 'utf8')));
await useLanguage('en');
