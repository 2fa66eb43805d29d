// The special actions of the action cards, as the decision panel (decisions.js) shows them:
// moves, placements, targets, a scoreboard, removals, a power card taken back. Each builds
// its controls from the decision's constraints and sets the panel's map interaction.

import {h} from '../../dom.js';
import {REGIONS, SCOREBOARDS, areaName, colourName} from './texts.js';
import {t} from '../../i18n.js';
import {colourBadge, colourOf} from './colours.js';
import {MOVE_KINDS, TARGET_KINDS, addMove, badgesOf, moveLimitText, netBadges, nonZero, planMove, sum} from './decisionrules.js';
import {choiceButton, stepper, submitButton} from '../../controls.js';

export function special(panel, d) {
  const kind = d.special;
  let controls;
  if (MOVE_KINDS.has(kind)) controls = moves(panel, d);
  else if (kind === 'place_two_anywhere') controls = extraPlacement(panel, d);
  else if (kind === 'place_two_or_move_all_own') controls = placeOrMove(panel, d);
  else if (TARGET_KINDS[kind]) controls = targets(panel, d, TARGET_KINDS[kind]);
  else if (kind === 'scoreboard') controls = scoreboard(panel, d);
  else if (kind === 'remove_one_each') controls = removeOneEach(panel, d);
  else if (kind === 'power_cards') controls = takeBack(panel, d);
  else if (kind === 'court') {
    controls = panel.takeControls(d.take_up_to || 0, d.take_province || 0, d.take_regions, 'court-', 'submit-special',
      (n) => t('elgrande.take.submit', {n}));
  } else {
    controls = [h('div', {class: 'actions'}, submitButton('submit-special', t('elgrande.special.carry_out'), true, () => panel.send({type: 'perform_special_action'})))];
  }
  // With nowhere to carry it out, skipping is the answer: shown, revealed and focused as such.
  const skip = () => panel.send({type: 'skip_special_action'});
  const onlySkip = Boolean(TARGET_KINDS[kind]) && !(d.targets || []).length;
  return h('div', {class: 'part', 'data-part': 'special', 'data-special': kind},
    controls,
    h('div', {class: 'actions'}, onlySkip
      ? submitButton('skip-special', t('elgrande.special.skip'), true, skip)
      : h('button', {type: 'button', class: 'secondary', 'data-testid': 'skip-special', onClick: skip}, t('elgrande.special.skip'))));
}

function targets(panel, d, how) {
  const chosen = panel.draft.target;
  const targets = d.targets || [];
  if (!targets.length) return [h('p', {class: 'muted'}, t('elgrande.special.nowhere'))];
  panel.board = {
    clickable: new Set(targets), badges: chosen ? {[chosen]: '✓'} : {}, dimOthers: true,
    hint: () => t(`elgrande.target.${how.words}.hint`), onActivate: (area) => panel.set({target: area}),
  };
  return [
    h('div', {class: 'choices', role: 'group', 'aria-label': t('elgrande.special.where')},
      targets.map((area) => choiceButton({
        testid: `choice-target-${area}`, label: areaName(area), pressed: chosen === area,
        onClick: () => panel.set({target: area}),
      }))),
    h('div', {class: 'actions'}, submitButton('submit-special', chosen ? t(`elgrande.target.${how.words}.submit`, {area: areaName(chosen)}) : t('elgrande.special.choose_where'),
      Boolean(chosen) && targets.includes(chosen), () => panel.send(how.command(chosen)))),
  ];
}

function scoreboard(panel, d) {
  const {view} = panel.ctx;
  const draft = panel.draft;
  const boardTo = d.scoreboard_to || {};
  // Where the chosen board may go; before a board is chosen, where some board may go.
  const targets = draft.board ? (boardTo[draft.board] || []) : (d.targets || []);
  if (draft.target && !targets.includes(draft.target)) draft.target = undefined;
  const boards = Object.keys(SCOREBOARDS).map((board) => ({
    board, at: (view.scoreboards || {})[board], to: boardTo[board] || [],
  }));
  panel.board = {
    clickable: new Set(targets), badges: draft.target ? {[draft.target]: '✓'} : {}, dimOthers: true,
    hint: () => t('elgrande.special.scoreboard_hint'), onActivate: (area) => panel.set({target: area}),
  };
  const ready = Boolean(draft.board && draft.target) && targets.includes(draft.target);
  return [
    h('div', {class: 'choices', role: 'group', 'aria-label': t('elgrande.special.which_scoreboard')},
      boards.map((b) => choiceButton({
        testid: `choice-board-${b.board}`,
        label: b.at ? t('elgrande.special.board_on', {board: SCOREBOARDS[b.board].short, area: areaName(b.at)})
          : t('elgrande.special.board_new', {board: SCOREBOARDS[b.board].short}),
        pressed: draft.board === b.board, disabled: !b.to.length || Boolean(draft.target && !b.to.includes(draft.target)),
        onClick: () => panel.set({board: b.board}),
      }))),
    boards.some((b) => !b.to.length)
      ? h('p', {class: 'muted'}, t('elgrande.special.scoreboard_stays')) : null,
    h('div', {class: 'choices', role: 'group', 'aria-label': t('elgrande.special.where')},
      targets.map((area) => choiceButton({
        testid: `choice-target-${area}`, label: areaName(area), pressed: draft.target === area,
        onClick: () => panel.set({target: area}),
      }))),
    h('div', {class: 'actions'}, submitButton('submit-special',
      ready ? t('elgrande.special.scoreboard_submit', {board: SCOREBOARDS[draft.board].short, area: areaName(draft.target)})
        : t('elgrande.special.scoreboard_choose'),
      ready, () => panel.send({type: 'place_scoreboard', board: draft.board, to: draft.target}))),
  ];
}

function removeOneEach(panel, d) {
  const {view, names} = panel.ctx;
  const draft = panel.draft;
  if (!draft.picks) draft.picks = {};
  const rows = [];
  const needed = [];
  // Every colour listed loses exactly one caballero, from one of its listed regions.
  for (const {colour, regions} of d.remove_from || []) {
    const where = REGIONS.filter((r) => (regions[r] || 0) > 0);
    if (!where.length) continue;
    needed.push(colour);
    const label = colourName(colour, names, view.options);
    rows.push(h('label', {class: 'select-row'},
      h('span', {}, colourBadge(colour, view), ` ${t('elgrande.special.one_of', {colour: label})} `),
      h('select', {
        'data-testid': `select-remove-${colour}`,
        onChange: (event) => panel.set({picks: {...draft.picks, [colour]: event.target.value || undefined}}),
      },
      h('option', {value: '', selected: !draft.picks[colour]}, t('elgrande.choose_option')),
      where.map((r) => h('option', {value: r, selected: draft.picks[colour] === r}, t('elgrande.area_count', {area: areaName(r), n: regions[r]}))))));
  }
  if (!needed.length) rows.push(h('p', {class: 'muted'}, t('elgrande.special.nothing_to_remove')));
  const ready = needed.every((c) => draft.picks[c]);
  rows.push(h('div', {class: 'actions'}, submitButton('submit-special', t('elgrande.special.remove_them'), ready,
    () => panel.send({type: 'remove_caballeros', picks: needed.map((colour) => ({colour, region: draft.picks[colour]}))}))));
  return rows;
}

function takeBack(panel, d) {
  const played = d.take_back || [];
  const chosen = panel.draft.value;
  if (!played.length) return [h('p', {class: 'muted'}, t('elgrande.special.no_played_card'))];
  return [
    h('div', {class: 'choices power-choices', role: 'group', 'aria-label': t('elgrande.special.played_cards')},
      played.map((v) => choiceButton({
        testid: `choice-takeback-${v}`, label: String(v), pressed: chosen === v, className: 'power-mini',
        onClick: () => panel.set({value: v}),
      }))),
    h('div', {class: 'actions'}, submitButton('submit-special', chosen ? t('elgrande.special.take_back', {value: String(chosen)}) : t('elgrande.special.choose_card'),
      played.includes(chosen), () => panel.send({type: 'take_back_power_card', value: chosen}))),
  ];
}

function extraPlacement(panel, d) {
  const draft = panel.draft;
  if (!draft.extra) draft.extra = {};
  const total = sum(draft.extra);
  const into = d.move_to || [];
  const list = h('div', {class: 'stepper-list'});
  for (const area of into) {
    const value = draft.extra[area] || 0;
    list.append(stepper({
      key: `extra-${area}`, label: areaName(area), value, max: d.extra_up_to - total + value,
      onChange: (v) => panel.set({extra: {...draft.extra, [area]: v}}),
    }));
  }
  panel.board = {
    clickable: new Set(total < d.extra_up_to ? into : []), badges: badgesOf(draft.extra, '+'), dimOthers: true,
    hint: () => t('elgrande.special.extra_hint'),
    onActivate: (area) => panel.addOne('extra', area),
  };
  return [
    h('p', {class: 'muted'}, t('elgrande.special.extra_explain', {n: d.extra_up_to})),
    list,
    h('div', {class: 'actions'}, submitButton('submit-special', t('elgrande.special.extra_submit', {n: total}), total <= d.extra_up_to,
      () => panel.send({type: 'place_extra_caballeros', to: nonZero(draft.extra)}))),
  ];
}

function placeOrMove(panel, d) {
  const mode = panel.draft.mode || 'place';
  return [
    h('div', {class: 'choices', role: 'group', 'aria-label': t('elgrande.special.which_action')},
      choiceButton({testid: 'choice-mode-place', label: t('elgrande.special.mode_place', {n: d.extra_up_to}), pressed: mode === 'place', onClick: () => panel.set({mode: 'place'})}),
      choiceButton({testid: 'choice-mode-move', label: t('elgrande.special.mode_move'), pressed: mode === 'move', disabled: !d.moves, onClick: () => panel.set({mode: 'move'})})),
    mode === 'move' && d.moves ? moves(panel, d) : extraPlacement(panel, d),
  ];
}

// A list of moves built one at a time, within the card's limits.
function moves(panel, d) {
  const {view, names, mySeat} = panel.ctx;
  const draft = panel.draft;
  if (!draft.moves) draft.moves = [];
  if (!draft.form) draft.form = {};
  const form = draft.form;
  const planned = draft.moves;
  const {colours, froms, tos, maxCount, available, moved} = planMove(d, planned, form, mySeat);
  const limitText = moveLimitText(d.moves);
  const canAdd = form.colour !== undefined && form.from && form.to && form.count > 0 && planned.length < 10;
  const add = () => {
    addMove(planned, form);
    panel.set({moves: planned, form: {colour: form.colour}});
  };
  const plannedBadges = netBadges(planned);
  panel.board = {clickable: new Set(), badges: plannedBadges, onActivate: () => {}};
  if (form.colour !== undefined) {
    if (!form.from) {
      panel.board = {
        clickable: new Set(froms), badges: plannedBadges, dimOthers: true, hint: () => t('elgrande.special.from_hint'),
        onActivate: (area) => panel.set({form: {...form, from: area, to: undefined}}),
      };
    } else {
      panel.board = {
        clickable: new Set(tos), badges: {...plannedBadges, [form.from]: t('elgrande.badge.from'), ...(form.to ? {[form.to]: t('elgrande.badge.to')} : {})}, dimOthers: true,
        hint: () => t('elgrande.special.to_hint'), onActivate: (area) => panel.set({form: {...form, to: area}}),
      };
    }
  }

  const select = (testid, label, value, options, onChange) => h('label', {class: 'select-row'},
    h('span', {}, label),
    h('select', {'data-testid': testid, disabled: !options.length, onChange: (event) => onChange(event.target.value)},
      h('option', {value: '', selected: value === undefined}, t('elgrande.choose_option')),
      options.map((o) => h('option', {value: String(o.value), selected: String(o.value) === String(value)}, o.label))));

  const builder = colours.length ? h('div', {class: 'move-builder'},
    select('move-colour', t('elgrande.special.whose'), form.colour, colours.map((c) => ({value: c, label: `${colourOf(c, view.options).symbol} ${colourName(c, names, view.options)}`})),
      (v) => panel.set({form: {colour: v === '' ? undefined : Number(v)}})),
    select('move-from', t('elgrande.special.from'), form.from, froms.map((a) => ({value: a, label: t('elgrande.area_count', {area: areaName(a), n: available(a, form.colour)})})),
      (v) => panel.set({form: {...form, from: v || undefined, to: undefined, count: undefined}})),
    select('move-to', t('elgrande.special.to'), form.to, tos.map((a) => ({value: a, label: areaName(a)})),
      (v) => panel.set({form: {...form, to: v || undefined}})),
    form.from ? stepper({key: 'move-count', label: t('elgrande.special.how_many'), value: form.count, max: maxCount, onChange: (v) => panel.set({form: {...form, count: Math.max(1, v)}})}) : null,
    h('button', {type: 'button', class: 'secondary', 'data-testid': 'add-move', disabled: !canAdd, onClick: add}, t('elgrande.special.add_move')))
    : h('p', {class: 'muted'}, t(planned.length ? 'elgrande.special.no_more_moves' : 'elgrande.special.no_moves'));

  const plannedList = planned.length ? h('ol', {class: 'planned-moves', 'aria-label': t('elgrande.special.planned_moves')},
    planned.map((m, i) => h('li', {},
      `${t('elgrande.special.planned', {n: m.count, symbol: colourOf(m.colour, view.options).symbol, colour: colourName(m.colour, names, view.options), from: areaName(m.from), to: areaName(m.to)})} `,
      h('button', {
        type: 'button', class: 'link-button', 'data-testid': `remove-move-${i}`, 'aria-label': t('elgrande.special.remove_move', {n: String(i + 1)}),
        onClick: () => panel.set({moves: planned.filter((_, j) => j !== i), form: {}}),
      }, t('elgrande.special.remove'))))) : null;

  return [
    h('p', {class: 'muted'}, limitText),
    builder,
    plannedList,
    h('div', {class: 'actions'}, submitButton('submit-special', moved ? t('elgrande.special.move_submit', {n: moved}) : t('elgrande.special.add_move_first'), moved > 0,
      () => panel.send({type: 'move_caballeros', moves: planned}))),
  ];
}
