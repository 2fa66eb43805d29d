// Finds the English a person would read that is still written in the web client's modules
// rather than taken from the catalogs (docs/translating.md): string and template literals in
// the places that end up on screen, and anything that reads like a sentence wherever it is.
// acorn parses each module, so comments and regular expressions never count.
import {parse} from 'acorn';
import {ancestor} from 'acorn-walk';

// Attributes and fields whose value a person reads (or hears, from a screen reader).
const TEXT_PROPERTIES = new Set([
  'aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription', 'title', 'placeholder', 'alt',
  'label', 'text', 'body', 'textContent', 'innerText', 'ariaLabel', 'message',
]);
// Calls whose arguments are shown as they are.
const TEXT_CALLS = new Set(['toast', 'confirm', 'alert', 'prompt', 'showError', 'pageTitle', 'createTextNode', 'Notification']);
// Calls whose string arguments are keys, selectors or names, never text.
const NOT_TEXT_CALLS = new Set([
  't', 'tParts', 'hasKey', 'querySelector', 'querySelectorAll', 'closest', 'matches', 'getElementById', 'request',
  'addEventListener', 'removeEventListener', 'on', 'emit', 'getItem', 'setItem', 'removeItem', 'add', 'remove', 'toggle',
  'contains', 'startsWith', 'endsWith', 'includes', 'split', 'join', 'replace', 'test', 'match', 'icon', 'setProperty',
  'Error', 'log', 'warn', 'error', 'info', 'debug', 'URL', 'fetch', 'register',
]);

// A literal's text: template literals by their fixed parts.
function literalText(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked).join('{}');
  return null;
}

// Letters a person reads: a word of two letters or more, not only code-like tokens.
const hasWords = (text) => /\p{L}{2,}/u.test(text);
// Reads like prose wherever it stands: two words and a capital at the start or a stop at the end.
const prose = (text) => /\p{L}{2,}[ ,]+\p{L}{2,}/u.test(text) && (/^\s*\p{Lu}/u.test(text) || /[.!?…:]\s*$/.test(text))
  && !/^[\w-]+( [\w-]+)*$/.test(text.trim()) || /^\p{Lu}\p{Ll}+[.!?…]$/u.test(text.trim());

const calleeName = (call) => call.callee.type === 'Identifier' ? call.callee.name
  : call.callee.type === 'MemberExpression' && !call.callee.computed ? call.callee.property.name : null;
const keyName = (prop) => prop.key.type === 'Identifier' ? prop.key.name : prop.key.type === 'Literal' ? String(prop.key.value) : null;

// Where a literal stands: it is text if it is a child of h()/s(), a text attribute's value,
// assigned to a text field, an argument of a call that shows text, or reads like prose; and
// it is not when it is a key, a selector, an import, a property's name or a comparison.
function verdict(node, ancestors) {
  let child = node;
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const parent = ancestors[i];
    switch (parent.type) {
      case 'ConditionalExpression':
      case 'LogicalExpression':
      case 'ArrayExpression':
      case 'SpreadElement':
      case 'TemplateLiteral':
        child = parent;
        continue;
      case 'BinaryExpression':
        if (['===', '!==', '==', '!=', 'in'].includes(parent.operator)) return false;
        child = parent;
        continue;
      case 'CallExpression':
      case 'NewExpression': {
        const name = calleeName(parent);
        if (NOT_TEXT_CALLS.has(name)) return false;
        if (parent.callee === child) return false;
        if ((name === 'h' || name === 's') && parent.arguments.indexOf(child) >= 2) return true;
        if (TEXT_CALLS.has(name)) return true;
        if (name === 'setAttribute') return parent.arguments.indexOf(child) === 1 && TEXT_PROPERTIES.has(literalText(parent.arguments[0]));
        return null;
      }
      case 'Property':
        if (parent.key === child && !parent.computed) return false;
        return TEXT_PROPERTIES.has(keyName(parent)) ? true : null;
      case 'AssignmentExpression':
        if (parent.left.type === 'MemberExpression' && !parent.left.computed && TEXT_PROPERTIES.has(parent.left.property.name)) return true;
        return null;
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
      case 'ImportExpression':
      case 'SwitchCase':
      case 'MemberExpression':
        return false;
      default:
        return null;
    }
  }
  return null;
}

// Each literal of `source` a person would read: {line, text}.
export function textsIn(source) {
  const found = [];
  const ast = parse(source, {ecmaVersion: 'latest', sourceType: 'module', locations: true});
  const lines = source.split('\n');
  const visit = (node, _state, ancestors) => {
    const text = literalText(node);
    if (text === null || !hasWords(text) || text === 'El Grande') return;  // the game's name is the same in every language
    if (/i18n-ignore/.test(lines[node.loc.start.line - 1])) return;
    const placed = verdict(node, ancestors);
    if (placed === true || (placed === null && prose(text))) found.push({line: node.loc.start.line, text});
  };
  ancestor(ast, {Literal: visit, TemplateLiteral: visit});
  return found;
}
