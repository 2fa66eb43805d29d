// One control per kind of decision of the engine. Every choice offered comes from the
// decision's constraints (docs/protocol-codecs.md, Decisions) and the public view; the
// server remains the judge and its refusals are shown as they come.

import {h, icon, replaceKeepingFocus} from './dom.js';
import {
  AREA_NAMES, GRANTED, PURPOSES, REGIONS, SCOREBOARDS, areaName, card,
  colourName, colourOf, describeAction,
} from './texts.js';
import {countdown} from './time.js';
import {changeOf, profileLink, ratingChangeCell, ratingStory} from './ratings.js';

const sum = (obj) => Object.values(obj || {}).reduce((a, b) => a + b, 0);
const nonZero = (obj) => Object.fromEntries(Object.entries(obj).filter(([, n]) => n > 0));
// A decision's per-colour counts ([{colour, regions}], absent: none) as {colour: {region: n}}.
const byColour = (list) => Object.fromEntries((list || []).map(({colour, regions}) => [colour, regions]));

const MOVE_KINDS = new Set([
  'move_all_own_from_region', 'move_five_from_region', 'move_three_opposing', 'move_three_any',
  'move_two_own_two_opposing', 'move_four_own', 'move_four_any',
]);
const TARGET_KINDS = {
  score_chosen_region: {verb: 'Score', command: (area) => ({type: 'score_area', area})},
  royal_advisor: {verb: 'Move the king to', command: (to) => ({type: 'move_king', to})},
  king: {verb: 'Move the king to', command: (to) => ({type: 'move_king', to})},
  eviction: {verb: 'Evict from', command: (region) => ({type: 'evict', region})},
  grande: {verb: 'Move your grande to', command: (to) => ({type: 'move_grande', to})},
};

// A number with − and + buttons; `key` names it for tests and for keeping focus.
function stepper({key, label, note, value, min = 0, max, onChange, disabled = false}) {
  return h('div', {class: 'stepper', 'data-testid': `stepper-${key}`},
    h('span', {class: 'stepper-label'}, label, note ? h('small', {}, note) : null),
    h('button', {
      type: 'button', class: 'step', 'data-testid': `dec-${key}`, 'aria-label': `One fewer: ${label}`,
      disabled: disabled || value <= min, onClick: () => onChange(value - 1),
    }, '−'),
    h('output', {class: 'stepper-value', 'data-testid': `value-${key}`, 'aria-live': 'polite'}, String(value)),
    h('button', {
      type: 'button', class: 'step', 'data-testid': `inc-${key}`, 'aria-label': `One more: ${label}`,
      disabled: disabled || value >= max, onClick: () => onChange(value + 1),
    }, '+'));
}

function choiceButton({testid, label, pressed, disabled, onClick, className = ''}) {
  return h('button', {
    type: 'button', class: `choice ${className}`, 'data-testid': testid, 'aria-pressed': String(Boolean(pressed)),
    disabled, onClick,
  }, label);
}

function submitButton(testid, label, enabled, onClick, className = 'primary') {
  return h('button', {type: 'button', class: `submit ${className}`, 'data-testid': testid, disabled: !enabled, onClick}, label);
}

export class DecisionPanel {
  // hooks: {submit(command, version), setBoard(interaction|null), setHand(mode|null), setOffer(mode|null), rerender()}
  constructor(container, hooks) {
    this.container = container;
    this.hooks = hooks;
    this.key = null;
    this.draft = {};
  }

  update(ctx) {
    this.ctx = ctx;
    const {decision} = ctx;
    const key = decision ? JSON.stringify(decision) : null;
    if (key !== this.key) {
      this.key = key;
      this.draft = {};
    }
    this.render();
  }

  set(changes) {
    Object.assign(this.draft, changes);
    this.render();
  }

  // One more caballero in `area` of the draft's counts `field` (a click on the map).
  addOne(field, area) {
    const counts = this.draft[field];
    this.set({[field]: {...counts, [area]: (counts[area] || 0) + 1}});
  }

  render() {
    const ctx = this.ctx;
    const {decision, view, busy} = ctx;
    this.board = null;
    this.hand = null;
    this.offer = null;
    let body;
    let title;
    let explain = null;
    const timeCalled = Boolean(ctx.table && ctx.table.result && ctx.table.result.time_called);
    if (view.phase === 'game_over' || timeCalled) {
      title = timeCalled ? 'Time was called' : 'The game is over';
      explain = timeCalled ? 'The tournament round reached its time limit: the game ended with the scores as they stood.' : null;
      body = this.finalScores();
    } else if (!decision) {
      title = ctx.mySeat === null ? 'Watching' : 'Waiting';
      body = this.waiting();
    } else if (typeof this[`render_${decision.kind}`] === 'function') {
      ({title, explain, body} = this[`render_${decision.kind}`](decision));
    } else {
      // A newer server may ask something this client does not know yet.
      title = 'An unknown decision';
      body = h('p', {}, `The server asks for “${decision.kind}”, which this page cannot show. Reload it to get the latest client.`);
    }
    const section = h('section', {
      class: `decision-inner${decision ? ' my-turn' : ''}`,
      'data-testid': 'decision',
      'data-kind': decision ? decision.kind : (view.phase === 'game_over' || timeCalled ? 'over' : 'none'),
      'data-busy': String(Boolean(busy)),
      'data-special': decision && decision.kind === 'use_action_card' ? decision.special : null,
      'data-key': `${view.version}:${decision ? decision.kind : 'none'}`,
      'aria-busy': String(Boolean(busy)),
    },
    h('header', {class: 'decision-head'},
      decision ? h('span', {class: 'your-turn-flag'}, 'Your turn') : null,
      h('h2', {id: 'decision-title'}, title),
      ctx.deadline && decision ? countdown(ctx.deadline, 'long', {'data-testid': 'deadline'}) : null),
    decision && ctx.timeouts > 0 ? this.timeoutWarning() : null,
    explain ? h('p', {class: 'explain'}, explain) : null,
    h('fieldset', {class: 'decision-body', disabled: Boolean(busy)}, body),
    ctx.canUndo && decision ? h('div', {class: 'actions undo'},
      h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'undo', disabled: Boolean(busy),
        onClick: () => this.send({type: 'undo'}),
      }, '↶ Undo my last step')) : null,
    ctx.error ? h('p', {class: ['error', ctx.errorTemporary && 'temporary'], role: 'alert', 'data-testid': 'error'}, ctx.error) : null,
    ctx.note ? h('p', {class: 'quiet-note', role: 'status', 'data-testid': 'quiet-note'}, ctx.note) : null);
    replaceKeepingFocus(this.container, section);
    this.hooks.setBoard(this.board);
    this.hooks.setHand(this.hand);
    this.hooks.setOffer(this.offer);
  }

  // The answer goes with the version of the update this panel shows.
  send(command) {
    this.hooks.submit(command, this.ctx.version);
  }

  // Time ran out on my last decisions: say what that cost and what more would cost.
  timeoutWarning() {
    const {timeouts, table} = this.ctx;
    const times = timeouts === 1 ? 'Time ran out on your last decision' : `Time ran out on your last ${timeouts} decisions`;
    let next = '';
    if (table && table.on_timeout === 'replace_seat') {
      const left = (table.replace_after || 3) - timeouts;
      next = left > 0 ? ` ${left === 1 ? 'One more timeout' : `${left} more timeouts in a row`} and a bot takes your seat for good.` : '';
    }
    return h('p', {class: 'timeout-warning', role: 'note', 'data-testid': 'timeout-warning'},
      icon('clock'), ` ${times}: a bot answered for you.${next}`);
  }

  // --- no decision -------------------------------------------------------------------

  waiting() {
    const {view, names} = this.ctx;
    const waiting = view.waiting_for || [];
    const who = waiting.map((s) => names[s]);
    const parts = [];
    if (who.length) {
      parts.push(h('p', {class: 'waiting-line', 'data-testid': 'waiting'},
        h('span', {class: 'spinner', 'aria-hidden': 'true'}),
        `Waiting for ${who.join(', ')} to ${waitWords(view)}.`));
    }
    if (view.phase === 'veto_window' && view.announced && view.active !== undefined) {
      parts.push(h('p', {}, `${names[view.active]} announced: ${describeAction(view.announced, this.ctx)}.`));
    }
    if (view.phase === 'disk_setting') {
      const set = view.players.map((p, seat) => (p.disk_set ? names[seat] : null)).filter(Boolean);
      if (set.length) parts.push(h('p', {}, `Disks already set: ${set.join(', ')}.`));
    }
    if (this.ctx.lost) parts.push(h('p', {class: 'muted'}, 'A server bot plays your seat now: you see the game as a spectator does, without hands, disks or castillo counts.'));
    else if (this.ctx.mySeat === null) parts.push(h('p', {class: 'muted'}, 'You are watching this game: hands, disks and castillo counts stay secret.'));
    return parts;
  }

  // The scores, and once table.rated came, each rated player's change.
  finalScores() {
    const {view, names, table, rated} = this.ctx;
    const result = table && table.result;
    const scores = result ? result.scores : view.players.map((p) => p.score);
    const winners = result ? result.winners : view.winners;
    const ranking = scores.map((score, seat) => ({score, seat})).sort((a, b) => b.score - a.score);
    return h('div', {class: 'final', 'data-testid': 'final-scores'},
      h('p', {class: 'winner-line'}, `♛ ${winners.map((s) => names[s]).join(' and ')} ${winners.length > 1 ? 'share the win' : 'wins'}!`),
      h('table', {class: 'final-table'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Player'), h('th', {}, 'Score'), rated ? h('th', {}, 'Rating') : null)),
        h('tbody', {}, ranking.map((r) => {
          const player = table && table.seats[r.seat] && table.seats[r.seat].player;
          return h('tr', {class: winners.includes(r.seat) ? 'winner' : '', 'data-testid': `final-score-${r.seat}`},
            h('td', {}, String(1 + scores.filter((score) => score > r.score).length)),  // equal scores share a place
            h('td', {}, colourBadge(r.seat, view), ' ', player ? profileLink(player, names[r.seat]) : names[r.seat]),
            h('td', {class: 'num'}, String(r.score)),
            rated ? ratingChangeCell(changeOf(rated, table, r.seat), `rating-change-${r.seat}`) : null);
        }))),
      ratingStory(rated, table, names),
      h('a', {href: '#/', class: 'button', 'data-testid': 'back-to-lobby'}, 'Back to the lobby'));
  }

  // --- power_card ------------------------------------------------------------------------

  render_power_card(d) {
    const selected = this.draft.value;
    const playable = new Set(d.playable);
    this.hand = {playable, selected, onSelect: (value) => this.set({value})};
    const body = [
      h('p', {}, selected
        ? `Power card ${selected}: you would take up to ${GRANTED[selected]} caballeros into your court.`
        : 'Pick a card from your hand below. Greyed cards were already played this round.'),
      submitButton('submit-play', selected ? `Play power card ${selected}` : 'Play the selected card', Boolean(selected) && playable.has(selected),
        () => this.send({type: 'play_power_card', value: selected})),
    ];
    return {
      title: 'Play a power card',
      explain: 'Higher cards play earlier this round; lower cards bring more caballeros. The lowest card makes you first player next round.',
      body,
    };
  }

  // --- take_caballeros / the court card ------------------------------------------------------

  // `atLeast`: from the province, the fewest allowed (the 1995 edition takes the power
  // card's caballeros in full).
  takeControls(upTo, province, regions, keyPrefix, submitId, submitLabel, atLeast = 0) {
    const d = this.draft;
    if (d.takeProvince === undefined) d.takeProvince = Math.min(upTo, province);
    if (!d.takeRegions) d.takeRegions = {};
    const fromRegions = sum(d.takeRegions);
    const total = d.takeProvince + fromRegions;
    const provinceEmptied = d.takeProvince === province;
    const rows = [
      stepper({
        key: `${keyPrefix}province`, label: 'From your province', note: ` (${province} there)`, value: d.takeProvince,
        min: atLeast, max: Math.min(province, upTo - fromRegions),
        onChange: (v) => {
          // Regions come into play only once the province is empty.
          this.set({takeProvince: v, takeRegions: v === province ? d.takeRegions : {}});
        },
      }),
    ];
    const regionEntries = Object.entries(regions || {}).filter(([, n]) => n > 0);
    if (regionEntries.length && province < upTo) {
      rows.push(h('p', {class: 'muted'}, provinceEmptied
        ? 'Your province is empty: you may also take caballeros back from regions.'
        : 'Once all your province is taken, you may take caballeros back from regions.'));
      for (const [area, n] of regionEntries) {
        const value = d.takeRegions[area] || 0;
        rows.push(stepper({
          key: `${keyPrefix}${area}`, label: `From ${AREA_NAMES[area]}`, note: ` (${n} there)`, value,
          max: Math.min(n, upTo - total + value), disabled: !provinceEmptied,
          onChange: (v) => this.set({takeRegions: {...d.takeRegions, [area]: v}}),
        }));
      }
      if (provinceEmptied && total < upTo) {
        this.board = {
          clickable: new Set(regionEntries.filter(([a, n]) => (d.takeRegions[a] || 0) < n).map(([a]) => a)),
          badges: badgesOf(d.takeRegions, '−'),
          hint: () => 'take one back to your court',
          onActivate: (area) => this.addOne('takeRegions', area),
        };
      }
    }
    const command = {type: 'take_caballeros', from_province: d.takeProvince, from_regions: nonZero(d.takeRegions)};
    rows.push(h('div', {class: 'actions'},
      submitButton(submitId, submitLabel(total), total <= upTo && d.takeProvince >= atLeast, () => this.send(command))));
    return rows;
  }

  render_take_caballeros(d) {
    const me = this.me();
    return {
      title: 'Take caballeros into your court',
      explain: d.at_least
        ? `Your power card ${me.played} moves ${d.up_to} caballeros into your court, where placements come from: the 1995 rules take ${d.at_least} of them from your province in full.`
        : `Your power card ${me.played} lets you move up to ${d.up_to} caballeros from your province to your court, where placements come from.`,
      body: this.takeControls(d.up_to, d.province, d.regions, 'take-', 'submit-take',
        (n) => (n ? `Take ${n} into my court` : 'Take none'), d.at_least || 0),
    };
  }

  // --- action_card --------------------------------------------------------------------------

  render_action_card(d) {
    const selected = this.draft.card;
    const offered = new Set(d.offered);
    this.offer = {offered, selected, onSelect: (id) => this.set({card: id})};
    const c = selected !== undefined ? card(selected) : null;
    return {
      title: 'Choose an action card',
      explain: 'Pick one of the cards on offer. Its number is how many caballeros you may place next to the king or into the castillo; then you may use its special action.',
      body: [
        c ? h('div', {class: 'picked-card'}, h('strong', {}, `${c.title} `), h('span', {class: 'stack-badge'}, String(c.stack)), h('p', {}, c.text))
          : h('p', {class: 'muted'}, 'No card selected yet.'),
        submitButton('submit-card', c ? `Take “${c.title}”` : 'Take the selected card', Boolean(c) && offered.has(selected),
          () => this.send({type: 'take_action_card', card: selected})),
      ],
    };
  }

  // --- use_action_card ------------------------------------------------------------------------

  render_use_action_card(d) {
    const c = card(d.card);
    if (!this.draft.part) this.draft.part = d.may_place ? 'place' : 'special';
    const part = d.may_place && d.may_act ? this.draft.part : (d.may_place ? 'place' : 'special');
    const tabs = h('div', {class: 'parts', role: 'group', 'aria-label': 'The two parts of the card'},
      choiceButton({
        testid: 'part-place', label: d.may_place ? `Placement (up to ${d.place_up_to})` : '✓ Placement done',
        pressed: part === 'place', disabled: !d.may_place, onClick: () => this.set({part: 'place'}),
      }),
      choiceButton({
        testid: 'part-special', label: d.may_act ? 'Special action' : '✓ Special action done',
        pressed: part === 'special', disabled: !d.may_act, onClick: () => this.set({part: 'special'}),
      }));
    const body = [
      h('div', {class: 'picked-card'}, h('strong', {}, `${c.title} `), h('span', {class: 'stack-badge'}, String(c.stack)), h('p', {}, c.text)),
      tabs,
      part === 'place' ? this.placement(d) : this.special(d),
    ];
    return {
      title: `Use “${c.title}”`,
      explain: 'Do the two parts in either order: place caballeros from your court, and carry out (or skip) the special action.',
      body,
    };
  }

  placement(d) {
    const draft = this.draft;
    if (!draft.place) draft.place = {};
    const into = d.place_into;
    const total = sum(draft.place);
    const rows = [h('p', {class: 'muted'},
      `Up to ${d.place_up_to} from your court (${this.me().court} there), into regions next to the king and/or the castillo. Click them on the map or use the buttons.`)];
    const list = h('div', {class: 'stepper-list'});
    for (const area of into) {
      const value = draft.place[area] || 0;
      list.append(stepper({
        key: `place-${area}`, label: AREA_NAMES[area], value, max: d.place_up_to - total + value,
        onChange: (v) => this.set({place: {...draft.place, [area]: v}}),
      }));
    }
    rows.push(list);
    if (total < d.place_up_to) {
      this.board = {
        clickable: new Set(into), badges: badgesOf(draft.place, '+'), dimOthers: true,
        hint: () => 'place one caballero here',
        onActivate: (area) => this.addOne('place', area),
      };
    } else {
      this.board = {clickable: new Set(), badges: badgesOf(draft.place, '+'), onActivate: () => {}};
    }
    rows.push(h('div', {class: 'actions'},
      submitButton('submit-place', total ? `Place ${total} caballero${total === 1 ? '' : 's'}` : 'Place none', total <= d.place_up_to,
        () => this.send({type: 'place_caballeros', to: nonZero(draft.place)})),
      total ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'place-reset', onClick: () => this.set({place: {}})}, 'Clear') : null));
    return h('div', {class: 'part', 'data-part': 'place'}, rows);
  }

  special(d) {
    const kind = d.special;
    let controls;
    if (MOVE_KINDS.has(kind)) controls = this.moves(d);
    else if (kind === 'place_two_anywhere') controls = this.extraPlacement(d);
    else if (kind === 'place_two_or_move_all_own') controls = this.placeOrMove(d);
    else if (TARGET_KINDS[kind]) controls = this.targets(d, TARGET_KINDS[kind]);
    else if (kind === 'scoreboard') controls = this.scoreboard(d);
    else if (kind === 'remove_one_each') controls = this.removeOneEach(d);
    else if (kind === 'power_cards') controls = this.takeBack(d);
    else if (kind === 'court') {
      controls = this.takeControls(d.take_up_to || 0, d.take_province || 0, d.take_regions, 'court-', 'submit-special',
        (n) => (n ? `Take ${n} into my court` : 'Take none'));
    } else {
      controls = [h('div', {class: 'actions'}, submitButton('submit-special', 'Carry it out', true, () => this.send({type: 'perform_special_action'})))];
    }
    return h('div', {class: 'part', 'data-part': 'special', 'data-special': kind},
      controls,
      h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', 'data-testid': 'skip-special', onClick: () => this.send({type: 'skip_special_action'})}, 'Skip the special action')));
  }

  targets(d, how) {
    const chosen = this.draft.target;
    const targets = d.targets || [];
    if (!targets.length) return [h('p', {class: 'muted'}, 'There is nowhere this can go now: skip it.')];
    this.board = {
      clickable: new Set(targets), badges: chosen ? {[chosen]: '✓'} : {}, dimOthers: true,
      hint: () => `choose it (${how.verb.toLowerCase()})`, onActivate: (area) => this.set({target: area}),
    };
    return [
      h('div', {class: 'choices', role: 'group', 'aria-label': 'Where'},
        targets.map((area) => choiceButton({
          testid: `choice-target-${area}`, label: AREA_NAMES[area], pressed: chosen === area,
          onClick: () => this.set({target: area}),
        }))),
      h('div', {class: 'actions'}, submitButton('submit-special', chosen ? `${how.verb} ${areaName(chosen)}` : 'Choose where first',
        Boolean(chosen) && targets.includes(chosen), () => this.send(how.command(chosen)))),
    ];
  }

  scoreboard(d) {
    const {view} = this.ctx;
    const draft = this.draft;
    const boardTo = d.scoreboard_to || {};
    // Where the chosen board may go; before a board is chosen, where some board may go.
    const targets = draft.board ? (boardTo[draft.board] || []) : (d.targets || []);
    if (draft.target && !targets.includes(draft.target)) draft.target = undefined;
    const boards = Object.keys(SCOREBOARDS).map((board) => ({
      board, at: (view.scoreboards || {})[board], to: boardTo[board] || [],
    }));
    this.board = {
      clickable: new Set(targets), badges: draft.target ? {[draft.target]: '✓'} : {}, dimOthers: true,
      hint: () => 'put the scoreboard here', onActivate: (area) => this.set({target: area}),
    };
    const ready = Boolean(draft.board && draft.target) && targets.includes(draft.target);
    return [
      h('div', {class: 'choices', role: 'group', 'aria-label': 'Which scoreboard'},
        boards.map((b) => choiceButton({
          testid: `choice-board-${b.board}`,
          label: `${SCOREBOARDS[b.board].short}${b.at ? ` (on ${areaName(b.at)})` : ' (new)'}`,
          pressed: draft.board === b.board, disabled: !b.to.length || Boolean(draft.target && !b.to.includes(draft.target)),
          onClick: () => this.set({board: b.board}),
        }))),
      boards.some((b) => !b.to.length)
        ? h('p', {class: 'muted'}, 'A scoreboard in the king’s region stays there.') : null,
      h('div', {class: 'choices', role: 'group', 'aria-label': 'Where'},
        targets.map((area) => choiceButton({
          testid: `choice-target-${area}`, label: AREA_NAMES[area], pressed: draft.target === area,
          onClick: () => this.set({target: area}),
        }))),
      h('div', {class: 'actions'}, submitButton('submit-special',
        ready ? `Put ${SCOREBOARDS[draft.board].short} on ${areaName(draft.target)}` : 'Choose a scoreboard and an area',
        ready, () => this.send({type: 'place_scoreboard', board: draft.board, to: draft.target}))),
    ];
  }

  removeOneEach(d) {
    const {view, names} = this.ctx;
    const draft = this.draft;
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
        h('span', {}, colourBadge(colour, view), ` One of ${label} from `),
        h('select', {
          'data-testid': `select-remove-${colour}`,
          onChange: (event) => this.set({picks: {...draft.picks, [colour]: event.target.value || undefined}}),
        },
        h('option', {value: '', selected: !draft.picks[colour]}, '— choose —'),
        where.map((r) => h('option', {value: r, selected: draft.picks[colour] === r}, `${AREA_NAMES[r]} (${regions[r]})`)))));
    }
    if (!needed.length) rows.push(h('p', {class: 'muted'}, 'No opponent has caballeros outside the king’s region: nothing to remove.'));
    const ready = needed.every((c) => draft.picks[c]);
    rows.push(h('div', {class: 'actions'}, submitButton('submit-special', 'Remove them', ready,
      () => this.send({type: 'remove_caballeros', picks: needed.map((colour) => ({colour, region: draft.picks[colour]}))}))));
    return rows;
  }

  takeBack(d) {
    const played = d.take_back || [];
    const chosen = this.draft.value;
    if (!played.length) return [h('p', {class: 'muted'}, 'You have no played power card to take back.')];
    return [
      h('div', {class: 'choices power-choices', role: 'group', 'aria-label': 'Played power cards'},
        played.map((v) => choiceButton({
          testid: `choice-takeback-${v}`, label: String(v), pressed: chosen === v, className: 'power-mini',
          onClick: () => this.set({value: v}),
        }))),
      h('div', {class: 'actions'}, submitButton('submit-special', chosen ? `Take power card ${chosen} back` : 'Choose a card',
        played.includes(chosen), () => this.send({type: 'take_back_power_card', value: chosen}))),
    ];
  }

  extraPlacement(d) {
    const draft = this.draft;
    if (!draft.extra) draft.extra = {};
    const total = sum(draft.extra);
    const into = d.move_to || [];
    const list = h('div', {class: 'stepper-list'});
    for (const area of into) {
      const value = draft.extra[area] || 0;
      list.append(stepper({
        key: `extra-${area}`, label: AREA_NAMES[area], value, max: d.extra_up_to - total + value,
        onChange: (v) => this.set({extra: {...draft.extra, [area]: v}}),
      }));
    }
    this.board = {
      clickable: new Set(total < d.extra_up_to ? into : []), badges: badgesOf(draft.extra, '+'), dimOthers: true,
      hint: () => 'place one more caballero here',
      onActivate: (area) => this.addOne('extra', area),
    };
    return [
      h('p', {class: 'muted'}, `Up to ${d.extra_up_to} more from your court, into any region but the king’s, and/or the castillo.`),
      list,
      h('div', {class: 'actions'}, submitButton('submit-special', total ? `Place ${total} more` : 'Place none', total <= d.extra_up_to,
        () => this.send({type: 'place_extra_caballeros', to: nonZero(draft.extra)}))),
    ];
  }

  placeOrMove(d) {
    const mode = this.draft.mode || 'place';
    return [
      h('div', {class: 'choices', role: 'group', 'aria-label': 'Which action'},
        choiceButton({testid: 'choice-mode-place', label: `Place up to ${d.extra_up_to} more`, pressed: mode === 'place', onClick: () => this.set({mode: 'place'})}),
        choiceButton({testid: 'choice-mode-move', label: 'Move out of one region', pressed: mode === 'move', disabled: !d.moves, onClick: () => this.set({mode: 'move'})})),
      mode === 'move' && d.moves ? this.moves(d) : this.extraPlacement(d),
    ];
  }

  // A list of moves built one at a time, within the card's limits.
  moves(d) {
    const {view, names, mySeat} = this.ctx;
    const limits = d.moves;
    const draft = this.draft;
    if (!draft.moves) draft.moves = [];
    if (!draft.form) draft.form = {};
    const form = draft.form;
    const moveTo = d.move_to || [];
    const movable = byColour(d.move_from);  // per colour, who may leave which region
    const planned = draft.moves;
    const leaving = (area, colour) => planned.filter((m) => m.from === area && m.colour === colour).reduce((a, m) => a + m.count, 0);
    const available = (area, colour) => ((movable[colour] || {})[area] || 0) - leaving(area, colour);
    const own = planned.filter((m) => m.colour === mySeat).reduce((a, m) => a + m.count, 0);
    const opposing = planned.filter((m) => m.colour !== mySeat).reduce((a, m) => a + m.count, 0);
    const totalLeft = limits.total - own - opposing;
    const colourLeft = (c) => Math.min(totalLeft, c === mySeat ? limits.own - own : limits.opposing - opposing);
    const fromAllowed = limits.single_source && planned.length ? [planned[0].from] : REGIONS;

    const colours = [];
    for (const {colour} of d.move_from || []) {
      if (colourLeft(colour) <= 0) continue;
      if (!fromAllowed.some((a) => available(a, colour) > 0)) continue;
      colours.push(colour);
    }
    if (form.colour === undefined || !colours.includes(form.colour)) {
      form.colour = colours.includes(mySeat) ? mySeat : colours[0];
      form.from = undefined;
      form.to = undefined;
    }
    const froms = form.colour === undefined ? [] : fromAllowed.filter((a) => available(a, form.colour) > 0);
    if (form.from !== undefined && !froms.includes(form.from)) form.from = undefined;
    const tos = form.from ? moveTo.filter((a) => a !== form.from) : [];
    if (form.to !== undefined && !tos.includes(form.to)) form.to = undefined;
    const maxCount = form.from ? Math.min(available(form.from, form.colour), colourLeft(form.colour)) : 0;
    // "Any or all" cards start at all of them; the others at one, the usual move.
    if (!form.count || form.count > maxCount) form.count = limits.all_own ? maxCount : Math.min(1, maxCount);

    const limitText = limits.all_own
      ? 'Any or all of your own caballeros, all out of one region.'
      : [`Up to ${limits.total} in all`,
        limits.own ? `${limits.own} of yours` : 'none of yours',
        limits.opposing ? `${limits.opposing} opposing` : 'no opposing ones',
        limits.single_source ? 'all out of one region' : null].filter(Boolean).join(', ') + '.';

    const canAdd = form.colour !== undefined && form.from && form.to && form.count > 0 && planned.length < 10;
    const add = () => {
      const same = planned.find((m) => m.colour === form.colour && m.from === form.from && m.to === form.to);
      if (same) same.count += form.count;
      else planned.push({colour: form.colour, from: form.from, to: form.to, count: form.count});
      this.set({moves: planned, form: {colour: form.colour}});
    };

    // The planned moves' net effect on each area, shown on the map.
    const net = {};
    for (const m of planned) {
      net[m.from] = (net[m.from] || 0) - m.count;
      net[m.to] = (net[m.to] || 0) + m.count;
    }
    const plannedBadges = {};
    for (const [area, n] of Object.entries(net)) if (n) plannedBadges[area] = n > 0 ? `+${n}` : `−${-n}`;
    this.board = {clickable: new Set(), badges: plannedBadges, onActivate: () => {}};
    if (form.colour !== undefined) {
      if (!form.from) {
        this.board = {
          clickable: new Set(froms), badges: plannedBadges, dimOthers: true, hint: () => 'move caballeros out of here',
          onActivate: (area) => this.set({form: {...form, from: area, to: undefined}}),
        };
      } else {
        this.board = {
          clickable: new Set(tos), badges: {...plannedBadges, [form.from]: 'from', ...(form.to ? {[form.to]: 'to'} : {})}, dimOthers: true,
          hint: () => 'move them here', onActivate: (area) => this.set({form: {...form, to: area}}),
        };
      }
    }

    const select = (testid, label, value, options, onChange) => h('label', {class: 'select-row'},
      h('span', {}, label),
      h('select', {'data-testid': testid, disabled: !options.length, onChange: (event) => onChange(event.target.value)},
        h('option', {value: '', selected: value === undefined}, '— choose —'),
        options.map((o) => h('option', {value: String(o.value), selected: String(o.value) === String(value)}, o.label))));

    const builder = colours.length ? h('div', {class: 'move-builder'},
      select('move-colour', 'Whose', form.colour, colours.map((c) => ({value: c, label: `${colourOf(c, view.options).symbol} ${colourName(c, names, view.options)}`})),
        (v) => this.set({form: {colour: v === '' ? undefined : Number(v)}})),
      select('move-from', 'From', form.from, froms.map((a) => ({value: a, label: `${AREA_NAMES[a]} (${available(a, form.colour)})`})),
        (v) => this.set({form: {...form, from: v || undefined, to: undefined, count: undefined}})),
      select('move-to', 'To', form.to, tos.map((a) => ({value: a, label: AREA_NAMES[a]})),
        (v) => this.set({form: {...form, to: v || undefined}})),
      form.from ? stepper({key: 'move-count', label: 'How many', value: form.count, max: maxCount, onChange: (v) => this.set({form: {...form, count: Math.max(1, v)}})}) : null,
      h('button', {type: 'button', class: 'secondary', 'data-testid': 'add-move', disabled: !canAdd, onClick: add}, 'Add this move'))
      : h('p', {class: 'muted'}, planned.length ? 'No more caballeros may move.' : 'No caballeros can move now: skip it.');

    const plannedList = planned.length ? h('ol', {class: 'planned-moves', 'aria-label': 'Planned moves'},
      planned.map((m, i) => h('li', {},
        `${m.count} × ${colourOf(m.colour, view.options).symbol} ${colourName(m.colour, names, view.options)}: ${AREA_NAMES[m.from]} → ${AREA_NAMES[m.to]} `,
        h('button', {
          type: 'button', class: 'link-button', 'data-testid': `remove-move-${i}`, 'aria-label': `Remove move ${i + 1}`,
          onClick: () => this.set({moves: planned.filter((_, j) => j !== i), form: {}}),
        }, 'remove')))) : null;

    const moved = own + opposing;
    return [
      h('p', {class: 'muted'}, limitText),
      builder,
      plannedList,
      h('div', {class: 'actions'}, submitButton('submit-special', moved ? `Move ${moved} caballero${moved === 1 ? '' : 's'}` : 'Add a move first', moved > 0,
        () => this.send({type: 'move_caballeros', moves: planned}))),
    ];
  }

  // --- veto ---------------------------------------------------------------------------------

  render_veto(d) {
    const {view, names} = this.ctx;
    const c = card(d.card);
    const action = view.announced ? describeAction(view.announced, {...this.ctx, seat: d.actor}) : 'use the card';
    return {
      title: `Veto ${names[d.actor]}?`,
      explain: `${names[d.actor]} plays “${c.title}” and announces: ${action}. You hold a live veto card: you may cancel this special action (their placement still happens).`,
      body: h('div', {class: 'actions'},
        submitButton('submit-veto-yes', 'Veto it', true, () => this.send({type: 'answer_veto', veto: true}), 'danger'),
        submitButton('submit-veto-no', 'Let it pass', true, () => this.send({type: 'answer_veto', veto: false}), 'secondary')),
    };
  }

  // --- return_caballeros (the angry king) ------------------------------------------------------

  render_return_caballeros(d) {
    const draft = this.draft;
    if (draft.court === undefined) draft.court = Math.min(d.count, d.court);
    if (!draft.regions) draft.regions = {};
    const total = draft.court + sum(draft.regions);
    const rows = [
      stepper({
        key: 'return-court', label: 'From your court', note: ` (${d.court} there)`, value: draft.court,
        max: Math.min(d.court, d.count - total + draft.court), onChange: (v) => this.set({court: v}),
      }),
    ];
    const entries = Object.entries(d.regions || {}).filter(([, n]) => n > 0);
    for (const [area, n] of entries) {
      const value = draft.regions[area] || 0;
      rows.push(stepper({
        key: `return-${area}`, label: `From ${AREA_NAMES[area]}`, note: ` (${n} there)`, value,
        max: Math.min(n, d.count - total + value), onChange: (v) => this.set({regions: {...draft.regions, [area]: v}}),
      }));
    }
    if (total < d.count) {
      this.board = {
        clickable: new Set(entries.filter(([a, n]) => (draft.regions[a] || 0) < n).map(([a]) => a)),
        badges: badgesOf(draft.regions, '−'), dimOthers: true, hint: () => 'return one from here',
        onActivate: (area) => this.addOne('regions', area),
      };
    } else {
      this.board = {clickable: new Set(), badges: badgesOf(draft.regions, '−'), onActivate: () => {}};
    }
    rows.push(h('p', {class: total === d.count ? 'ok' : 'muted'}, `Chosen: ${total} of ${d.count}.`));
    rows.push(h('div', {class: 'actions'}, submitButton('submit-return', `Return ${d.count} to my province`, total === d.count,
      () => this.send({type: 'return_caballeros', from_court: draft.court, from_regions: nonZero(draft.regions)}))));
    return {
      title: `The angry king: return ${d.count}`,
      explain: `Choose ${d.count} of your caballeros, from your court and/or regions (not the king’s region), to go back to your province.`,
      body: rows,
    };
  }

  // --- disk -----------------------------------------------------------------------------------

  render_disk(d) {
    const {view} = this.ctx;
    const me = this.me();
    const chosen = this.draft.region;
    const allowed = d.allowed || [];
    const explain = {
      general_scoring: `General scoring: your ${me.castillo ?? 0} caballero${me.castillo === 1 ? '' : 's'} in the castillo will move to the region you pick (to your court if it is the king’s region).`,
      disk_return_two: 'Bad harvest: pick a region where you will lose 2 caballeros.',
      disk_return_all: 'Plague: pick a region where you will lose all your caballeros.',
      eviction: `Eviction: all your caballeros must leave ${view.evicted_from ? areaName(view.evicted_from) : 'the region'}; pick where they go (to your court if it is the king’s region).`,
      secret_scoring: 'Secret scoring: each region picked by exactly one player is scored.',
    }[d.purpose] || `Set your secret disk for ${PURPOSES[d.purpose] || d.purpose}.`;
    this.board = {
      clickable: new Set(allowed), badges: chosen ? {[chosen]: '◉'} : {}, dimOthers: true,
      hint: () => 'point your disk here', onActivate: (area) => this.set({region: area}),
    };
    return {
      title: 'Set your secret disk',
      explain,
      body: [
        h('div', {class: 'choices', role: 'group', 'aria-label': 'Regions'},
          allowed.map((area) => choiceButton({
            testid: `choice-disk-${area}`, label: AREA_NAMES[area], pressed: chosen === area,
            onClick: () => this.set({region: area}),
          }))),
        h('div', {class: 'actions'}, submitButton('submit-disk', chosen ? `Set my disk to ${AREA_NAMES[chosen]}` : 'Choose a region',
          Boolean(chosen) && allowed.includes(chosen), () => this.send({type: 'set_disk', region: chosen}))),
      ],
    };
  }

  // --- helpers ------------------------------------------------------------------------------------

  me() {
    return this.ctx.view.players[this.ctx.mySeat];
  }

}

function badgesOf(counts, sign) {
  const out = {};
  for (const [area, n] of Object.entries(counts || {})) if (n > 0) out[area] = `${sign}${n}`;
  return out;
}

export function colourBadge(colour, view) {
  const col = colourOf(colour, view.options);
  return h('span', {class: `colour-badge shape-${col.shape}`, style: {'--c': col.fill, '--ink': col.ink}, 'aria-hidden': 'true'}, col.symbol);
}

function waitWords(view) {
  switch (view.phase) {
    case 'power_cards': return 'play a power card';
    case 'take_caballeros': return 'take caballeros';
    case 'choose_action_card': return 'choose an action card';
    case 'use_action_card': return view.card !== undefined ? `use “${card(view.card).title}”` : 'use an action card';
    case 'veto_window': return 'decide whether to veto';
    case 'returning': return 'return caballeros to the angry king';
    case 'disk_setting': return `set a secret disk (${PURPOSES[view.disk_purpose] || 'disks'})`;
    default: return 'decide';
  }
}


