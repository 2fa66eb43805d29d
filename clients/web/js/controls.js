// A game panel's small controls: a number with − and +, a choice, a submit button.

import {h} from './dom.js';
import {t} from './i18n.js';

// A number with − and + buttons; `key` names it for tests and for keeping focus.
export function stepper({key, label, note, value, min = 0, max, onChange, disabled = false}) {
  return h('div', {class: 'stepper', 'data-testid': `stepper-${key}`},
    h('span', {class: 'stepper-label'}, label, note ? h('small', {}, note) : null),
    h('button', {
      type: 'button', class: 'step', 'data-testid': `dec-${key}`, 'aria-label': t('controls.fewer', {label}),
      disabled: disabled || value <= min, onClick: () => onChange(value - 1),
    }, '−'),
    h('output', {class: 'stepper-value', 'data-testid': `value-${key}`, 'aria-live': 'polite'}, String(value)),
    h('button', {
      type: 'button', class: 'step', 'data-testid': `inc-${key}`, 'aria-label': t('controls.more', {label}),
      disabled: disabled || value >= max, onClick: () => onChange(value + 1),
    }, '+'));
}

export function choiceButton({testid, label, pressed, disabled, onClick, className = ''}) {
  return h('button', {
    type: 'button', class: `choice ${className}`, 'data-testid': testid, 'aria-pressed': String(Boolean(pressed)),
    disabled, onClick,
  }, label);
}

export function submitButton(testid, label, enabled, onClick, className = 'primary') {
  return h('button', {type: 'button', class: `submit ${className}`, 'data-testid': testid, disabled: !enabled, onClick}, label);
}
