// One control per kind of decision of the engine. Every choice offered comes from the
// decision's constraints (docs/protocol-codecs.md, Decisions) and the public view; the
// server remains the judge and its refusals are shown as they come.

import {h, icon, replaceKeepingFocus} from '../../dom.js';
import {AREA_NAMES, GRANTED, PURPOSES, areaName, card, describeAction} from './texts.js';
import {countdown} from '../../time.js';
import {changeOf, profileLink, ratingChangeCell, ratingStory} from '../../ratings.js';
import {badgesOf, nonZero, sum, waitWords} from './decisionrules.js';
import {choiceButton, stepper, submitButton} from '../../controls.js';
import {colourBadge} from './colours.js';
import {special} from './specials.js';

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
      part === 'place' ? this.placement(d) : special(this, d),
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
