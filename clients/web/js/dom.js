// Tiny DOM helpers: the client builds its screens from plain elements, no framework.

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(parent, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
  } else if (child instanceof Node) {
    parent.appendChild(child);
  } else {
    parent.appendChild(document.createTextNode(String(child)));
  }
}

function setAttributes(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (key === 'style' && typeof value === 'object') {
      // setProperty, because custom properties (--c) cannot be assigned as fields.
      for (const [name, v] of Object.entries(value)) el.style.setProperty(name, v);
    } else if (key === 'value' && 'value' in el) {
      el.value = value;
    } else if (key === 'checked' || key === 'selected' || key === 'disabled') {
      el[key] = Boolean(value);
      if (value) el.setAttribute(key, '');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

// h('button', {class: 'x', onClick: fn}, 'text', child...)
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  append(el, children);
  return el;
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttributes(el, attrs);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Replaces a container's content while keeping keyboard focus on the "same" control,
// so that re-rendering after every click does not throw a keyboard user back to the top.
export function replaceKeepingFocus(container, ...children) {
  const active = document.activeElement;
  const hadFocus = Boolean(active && active !== container && container.contains(active));
  const key = hadFocus ? focusKey(active) : null;
  clear(container);
  append(container, children);
  if (!hadFocus) return;
  const again = key ? container.querySelector(`[data-testid="${CSS.escape(key)}"]`) : null;
  if (again && !again.matches(':disabled')) again.focus();
  // The control is gone (the decision was answered): keep focus nearby, not on <body>.
  else if (container.hasAttribute('tabindex')) container.focus({preventScroll: true});
}

function focusKey(el) {
  return el.getAttribute('data-testid');
}

// A table wider than a phone scrolls sideways within its own region, not the page; the region
// takes focus, so that the keyboard's arrows scroll it too.
export function scrollRegion(label, child) {
  return h('div', {class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': label}, child);
}

// A radio group of buttons (arrow keys move the choice), as for the number of players.
export function segmented({label, options, value, onChange, testid}) {
  const group = h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': label});
  const values = options.map(([v]) => v);
  for (const [v, text] of options) {
    group.append(h('button', {
      type: 'button', role: 'radio', 'aria-checked': String(v === value), tabindex: v === value ? 0 : -1,
      'data-testid': `${testid}-${v}`,
      onClick: () => onChange(v),
      onKeydown: (event) => {
        const step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
        if (!step) return;
        event.preventDefault();
        const next = values[Math.min(values.length - 1, Math.max(0, values.indexOf(value) + step))];
        onChange(next);
      },
    }, text));
  }
  return group;
}

// Small line icons drawn in the text colour (no font on every system has ⏱ or ⤓).
const ICONS = {
  clock: [['circle', {cx: 8, cy: 9, r: 5.8}], ['path', {d: 'M8 5.6V9l2.4 1.6M6 1.8h4M8 1.8v1.4'}]],
  flag: [['path', {d: 'M3.5 15V2M3.5 2.6h8.5l-2 3 2 3H3.5'}]],
  download: [['path', {d: 'M8 2v8.5M4.5 7.2 8 10.7l3.5-3.5M2.5 13.8h11'}]],
};

export function icon(name) {
  return s('svg', {class: `icon icon-${name}`, viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false'},
    ICONS[name].map(([tag, attrs]) => s(tag, {...attrs, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round', 'stroke-linejoin': 'round'})));
}
