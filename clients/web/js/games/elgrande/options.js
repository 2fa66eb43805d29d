// El Grande's options (protocol.md, table.create): the parts of the shell's three forms that
// choose them, what a form's fields send, and the options in words. A form is one of three
// contexts: 'table' (the lobby's create form: every option), 'play' (play now: what it
// matches on) and 'tournament' (what every table of an event shares).

import {h, replaceKeepingFocus, segmented} from '../../dom.js';
import {t} from '../../i18n.js';

const DEFAULTS = {
  table: {players: 3, short_game: false, automa: false, four_stacks: false, edition: '2023'},
  play: {players: 3, short_game: true, automa: false},
  tournament: {short_game: false},
};

export function defaultOptions(context) {
  return {...DEFAULTS[context]};
}

// The options a form's fields stand for, as the request sends them.
export function formOptions(f, context) {
  switch (context) {
    case 'table': return {players: f.players, short_game: f.short_game, automa: f.automa, four_stacks: f.four_stacks, edition: f.edition};
    case 'play': return {players: f.players, short_game: f.short_game, automa: f.players === 2 && f.automa};
    case 'tournament': return {short_game: f.short_game};
    default: throw new Error(`no options form for ${context}`);
  }
}

// "3 players · with the automa · short game (6 rounds)"; an event's games: "Short game".
export function optionsText(o, context = 'table') {
  if (context === 'tournament') return t(o.short_game ? 'elgrande.options.short_game' : 'elgrande.options.full_game');
  const parts = [t('elgrande.options.players', {n: o.players})];
  if (o.automa) parts.push(t('elgrande.options.with_automa'));
  if (o.short_game) parts.push(t('elgrande.options.short_game_rounds_lower'));
  if (o.four_stacks) parts.push(t('elgrande.options.four_stacks_lower'));
  if (o.edition === '1995') parts.push(t('elgrande.options.rules_1995'));
  return parts.join(' · ');
}

// The form's nodes that choose the options, in the order they show; they change `f` in place.
export function optionsForm(f, context) {
  switch (context) {
    case 'table': return tableForm(f);
    case 'play': return playForm(f);
    case 'tournament': return [h('label', {}, shortGame(f, 'tournament-short'), ` ${t('elgrande.options.short_game_rounds')}`)];
    default: throw new Error(`no options form for ${context}`);
  }
}

function shortGame(f, id) {
  const short = h('input', {type: 'checkbox', id, 'data-testid': id, checked: f.short_game});
  short.addEventListener('change', () => { f.short_game = short.checked; });
  return short;
}

function tableForm(f) {
  const players = h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': t('elgrande.options.players_label')});
  const automa = h('input', {type: 'checkbox', id: 'opt-automa', 'data-testid': 'opt-automa'});
  const four = h('input', {type: 'checkbox', id: 'opt-four-stacks', 'data-testid': 'opt-four-stacks'});
  const short = shortGame(f, 'opt-short');
  const edition = h('select', {id: 'opt-edition', 'data-testid': 'opt-edition', 'aria-describedby': 'opt-edition-note'},
    [['2023', 'elgrande.options.edition_2023'], ['1995', 'elgrande.options.edition_1995']].map(([value, key]) =>
      h('option', {value, selected: value === f.edition}, t(key))));
  edition.addEventListener('change', () => {
    f.edition = edition.value;
    sync();
  });
  const sync = () => {
    // The options the protocol allows: the automa only with 2 players, four stacks with 3 or the automa,
    // neither with the 1995 rules (docs/rules-notes.md#editions).
    automa.disabled = f.players !== 2 || f.edition === '1995';
    if (automa.disabled) f.automa = false;
    automa.checked = f.automa;
    four.disabled = f.edition === '1995' || !(f.players === 3 || f.automa);
    if (four.disabled) f.four_stacks = false;
    four.checked = f.four_stacks;
    for (const button of players.querySelectorAll('button')) {
      const n = Number(button.dataset.players);
      button.setAttribute('aria-checked', String(n === f.players));
      button.tabIndex = n === f.players ? 0 : -1;
    }
  };
  for (let n = 2; n <= 5; n++) {
    players.append(h('button', {
      type: 'button', role: 'radio', 'data-players': String(n), 'data-testid': `opt-players-${n}`,
      onClick: () => {
        f.players = n;
        sync();
      },
      onKeydown: (event) => {
        const step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[event.key];
        if (!step) return;
        event.preventDefault();
        f.players = Math.min(5, Math.max(2, f.players + step));
        sync();
        players.querySelector(`[data-players="${f.players}"]`).focus();
      },
    }, String(n)));
  }
  automa.addEventListener('change', () => {
    f.automa = automa.checked;
    sync();
  });
  four.addEventListener('change', () => {
    f.four_stacks = four.checked;
    sync();
  });
  sync();
  return [
    h('span', {class: 'label'}, t('elgrande.options.players_label')), players,
    h('div', {class: 'checks'},
      h('label', {}, short, ` ${t('elgrande.options.short_game_rounds')}`),
      h('label', {}, automa, ` ${t('elgrande.options.automa')}`),
      h('label', {}, four, ` ${t('elgrande.options.four_stacks')}`)),
    h('label', {for: 'opt-edition'}, t('elgrande.options.rules')), edition,
    h('span', {class: 'note muted', id: 'opt-edition-note'}, t('elgrande.options.edition_note')),
  ];
}

function playForm(f) {
  const players = h('div', {class: 'play-players'});
  const automa = h('input', {type: 'checkbox', id: 'play-automa', 'data-testid': 'play-automa'});
  const short = shortGame(f, 'play-short');
  const sync = () => {
    // The automa plays only in 2-player games.
    automa.disabled = f.players !== 2;
    if (automa.disabled) f.automa = false;
    automa.checked = f.automa;
    replaceKeepingFocus(players, segmented({
      label: t('elgrande.options.players_label'), testid: 'play-players', value: f.players,
      options: [2, 3, 4, 5].map((n) => [n, String(n)]),
      onChange: (n) => {
        const hadFocus = players.contains(document.activeElement);
        f.players = n;
        sync();
        // Arrow keys move the choice: focus follows it, as in any radio group.
        if (hadFocus) players.querySelector(`[data-testid="play-players-${n}"]`).focus();
      },
    }));
  };
  automa.addEventListener('change', () => { f.automa = automa.checked; });
  sync();
  return [
    h('span', {class: 'label'}, t('elgrande.options.players_label')), players,
    h('div', {class: 'checks'},
      h('label', {}, short, ` ${t('elgrande.options.short_game_rounds')}`),
      h('label', {}, automa, ` ${t('elgrande.options.automa')}`)),
  ];
}
