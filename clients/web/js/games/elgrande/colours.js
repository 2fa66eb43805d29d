// El Grande's colours: one per seat, the automa's grey, and a colour's badge. Each colour has
// its own shape and symbol, so that no one needs to tell hues apart.

import {h} from '../../dom.js';

// Okabe–Ito colours.
export const COLOURS = [
  {name: 'blue', fill: '#0072b2', ink: '#ffffff', shape: 'circle', symbol: '●'},
  {name: 'orange', fill: '#e69f00', ink: '#1b1b1b', shape: 'square', symbol: '■'},
  {name: 'green', fill: '#009e73', ink: '#ffffff', shape: 'triangle', symbol: '▲'},
  {name: 'red', fill: '#d55e00', ink: '#ffffff', shape: 'diamond', symbol: '◆'},
  {name: 'pink', fill: '#cc79a7', ink: '#1b1b1b', shape: 'star', symbol: '★'},
];
export const AUTOMA_COLOUR = {name: 'grey', fill: '#6e6e6e', ink: '#ffffff', shape: 'cross', symbol: '✚'};

export function colourOf(colour, options) {
  if (options && options.automa && colour === options.players) return AUTOMA_COLOUR;
  return COLOURS[colour] || AUTOMA_COLOUR;
}

export function colourCount(options) {
  return Math.min(options.players + (options.automa ? 1 : 0), 5);
}

export function colourBadge(colour, view) {
  const col = colourOf(colour, view.options);
  return h('span', {class: `colour-badge shape-${col.shape}`, style: {'--c': col.fill, '--ink': col.ink}, 'aria-hidden': 'true'}, col.symbol);
}
