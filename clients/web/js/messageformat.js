// ICU MessageFormat, the part the catalogs use (docs/translating.md): `{name}`, `{n, number}`,
// `{n, plural, =0 {…} one {…} other {…}}` with `#` and `offset:`, `{n, selectordinal, …}`,
// `{x, select, a {…} other {…}}`, `{t, date, short|medium|long|full}`, `{t, time, short}`,
// and apostrophe quoting as ICU reads it ('' is one apostrophe; '{' a literal brace).
// Interpreted, not compiled to code: the page's Content-Security-Policy forbids eval, which
// @messageformat/core needs, and this subset is all the catalogs need. Plural categories
// come from Intl.PluralRules, so every language's rules are the browser's CLDR data.
// Pure: Node's tests and the catalog check import it.

export class MessageSyntaxError extends Error {}

const PLURAL_TYPES = new Set(['plural', 'selectordinal']);
const TYPES = new Set(['number', 'date', 'time', 'select', ...PLURAL_TYPES]);

// The message as a tree: strings, {arg, type?, style?, cases?, offset?} and {pound: true}.
export function parseMessage(source) {
  const parser = {source, at: 0};
  const nodes = parseNodes(parser, false, 0);
  if (parser.at < source.length) throw new MessageSyntaxError(`unexpected '}' at ${parser.at}`);
  return nodes;
}

function parseNodes(p, inPlural, depth) {
  if (depth > 8) throw new MessageSyntaxError('nested too deep');
  const nodes = [];
  let text = '';
  while (p.at < p.source.length) {
    const c = p.source[p.at];
    if (c === '}') break;
    if (c === '{') {
      if (text) nodes.push(text), text = '';
      nodes.push(parseArgument(p, depth));
    } else if (c === '#' && inPlural) {
      if (text) nodes.push(text), text = '';
      nodes.push({pound: true});
      p.at++;
    } else if (c === '\'') {
      text += quoted(p, inPlural);
    } else {
      text += c;
      p.at++;
    }
  }
  if (text) nodes.push(text);
  return nodes;
}

// ICU's apostrophe mode DOUBLE_OPTIONAL: '' is an apostrophe; an apostrophe before a syntax
// character quotes up to the next lone apostrophe; any other apostrophe is itself.
function quoted(p, inPlural) {
  const next = p.source[p.at + 1];
  if (next === '\'') {
    p.at += 2;
    return '\'';
  }
  if (next !== '{' && next !== '}' && !(inPlural && next === '#')) {
    p.at++;
    return '\'';
  }
  let text = '';
  p.at++;
  while (p.at < p.source.length) {
    if (p.source[p.at] === '\'') {
      if (p.source[p.at + 1] === '\'') {
        text += '\'';
        p.at += 2;
        continue;
      }
      p.at++;
      return text;
    }
    text += p.source[p.at++];
  }
  return text;
}

function parseArgument(p, depth) {
  p.at++;  // {
  const arg = word(p);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) throw new MessageSyntaxError(`bad argument name '${arg}' at ${p.at}`);
  if (eat(p, '}')) return {arg};
  expect(p, ',');
  const type = word(p);
  if (!TYPES.has(type)) throw new MessageSyntaxError(`unknown type '${type}' of {${arg}}`);
  if (eat(p, '}')) {
    if (type === 'select' || PLURAL_TYPES.has(type)) throw new MessageSyntaxError(`{${arg}, ${type}} needs cases`);
    return {arg, type};
  }
  expect(p, ',');
  if (type === 'number' || type === 'date' || type === 'time') {
    // A named style ("short") or, as ICU allows, a pattern up to the brace ("yyyy-MM-dd HH:mm").
    const end = p.source.indexOf('}', p.at);
    if (end < 0) throw new MessageSyntaxError(`expected '}' at ${p.source.length} of "${p.source}"`);
    const style = p.source.slice(p.at, end).trim();
    p.at = end + 1;
    return {arg, type, style};
  }
  const node = {arg, type, cases: {}, offset: 0};
  skipSpace(p);
  if (p.source.startsWith('offset:', p.at)) {
    p.at += 'offset:'.length;
    node.offset = Number(word(p));
    if (!Number.isInteger(node.offset)) throw new MessageSyntaxError(`bad offset of {${arg}}`);
  }
  for (;;) {
    skipSpace(p);
    if (eat(p, '}')) break;
    const key = word(p);
    if (!key) throw new MessageSyntaxError(`a case of {${arg}} has no name at ${p.at}`);
    if (key in node.cases) throw new MessageSyntaxError(`case '${key}' of {${arg}} twice`);
    expect(p, '{');
    node.cases[key] = parseNodes(p, PLURAL_TYPES.has(type), depth + 1);
    expect(p, '}');
  }
  if (!('other' in node.cases)) throw new MessageSyntaxError(`{${arg}, ${type}} has no 'other' case`);
  return node;
}

function word(p) {
  skipSpace(p);
  const start = p.at;
  while (p.at < p.source.length && /[^\s{},]/.test(p.source[p.at])) p.at++;
  return p.source.slice(start, p.at);
}

function skipSpace(p) {
  while (p.at < p.source.length && /\s/.test(p.source[p.at])) p.at++;
}

function eat(p, c) {
  skipSpace(p);
  if (p.source[p.at] !== c) return false;
  p.at++;
  return true;
}

function expect(p, c) {
  if (!eat(p, c)) throw new MessageSyntaxError(`expected '${c}' at ${p.at} of "${p.source}"`);
}

// Every argument a message names, nested ones too: the catalog check compares them.
export function argumentNames(nodes, names = new Set()) {
  for (const node of nodes) {
    if (typeof node !== 'object' || node.pound) continue;
    names.add(node.arg);
    for (const inner of Object.values(node.cases || {})) argumentNames(inner, names);
  }
  return names;
}

// Each plural or selectordinal argument with its case names: the check wants every plural
// category of the language present.
export function pluralArguments(nodes, found = []) {
  for (const node of nodes) {
    if (typeof node !== 'object' || !node.cases) continue;
    if (PLURAL_TYPES.has(node.type)) found.push({arg: node.arg, type: node.type, cases: Object.keys(node.cases)});
    for (const inner of Object.values(node.cases)) pluralArguments(inner, found);
  }
  return found;
}

// Intl's formatters cost a little to make: one of each per language and style.
const formatters = new Map();
function formatter(kind, locale, options) {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Intl[kind](locale, options));
  return formatters.get(key);
}

const DATE_STYLES = new Set(['short', 'medium', 'long', 'full']);

// The message's parts: strings, and any parameter that is not text or a number (a DOM node)
// as it was given, so a caller may put elements inside a sentence.
export function formatParts(nodes, params, locale, pound = null) {
  const parts = [];
  for (const node of nodes) {
    if (typeof node === 'string') parts.push(node);
    else if (node.pound) parts.push(pound === null ? '#' : formatter('NumberFormat', locale, {}).format(pound));
    else parts.push(...formatArgument(node, params, locale));
  }
  return parts;
}

function formatArgument(node, params, locale) {
  const value = params ? params[node.arg] : undefined;
  if (value === undefined) return [`{${node.arg}}`];
  switch (node.type) {
    case undefined:
      return [typeof value === 'number' ? formatter('NumberFormat', locale, {}).format(value) : value];
    case 'number':
      return [formatter('NumberFormat', locale, node.style === 'percent' ? {style: 'percent'} : {}).format(value)];
    case 'date':
    case 'time': {
      const style = DATE_STYLES.has(node.style) ? node.style : 'medium';
      return [formatter('DateTimeFormat', locale, {[`${node.type}Style`]: style}).format(new Date(value))];
    }
    case 'select':
      return formatParts(node.cases[String(value)] || node.cases.other, params, locale);
    default: {
      const n = Number(value) - node.offset;
      const exact = node.cases[`=${Number(value)}`];
      if (exact) return formatParts(exact, params, locale, n);
      const rules = formatter('PluralRules', locale, {type: node.type === 'plural' ? 'cardinal' : 'ordinal'});
      return formatParts(node.cases[rules.select(n)] || node.cases.other, params, locale, n);
    }
  }
}

// A message as a string: parts that are nodes become their text.
export function formatMessage(nodes, params, locale) {
  return formatParts(nodes, params, locale).map((part) => (typeof part === 'string' ? part : part.textContent ?? String(part))).join('');
}
