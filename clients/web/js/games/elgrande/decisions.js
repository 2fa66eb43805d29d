// One control per kind of decision of the engine. Every choice offered comes from the
// decision's constraints (docs/protocol-codecs.md, Decisions) and the public view; the
// server remains the judge and its refusals are shown as they come.

import {h, icon, replaceKeepingFocus} from '../../dom.js';
import {GRANTED, areaName, card, describeAction, purposeText} from './texts.js';
import {formatList, hasKey, t} from '../../i18n.js';
import {countdown} from '../../time.js';
import {changeOf, profileLink, ratingChangeCell, ratingStory} from '../../ratings.js';
import {badgesOf, nonZero, sum, waitText} from './decisionrules.js';
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
      title = t(timeCalled ? 'elgrande.panel.time_called' : 'elgrande.panel.game_over');
      explain = timeCalled ? t('elgrande.panel.time_called_explain') : null;
      body = this.finalScores();
    } else if (!decision) {
      title = t(ctx.mySeat === null ? 'elgrande.panel.watching' : 'elgrande.panel.waiting');
      body = this.waiting();
    } else if (typeof this[`render_${decision.kind}`] === 'function') {
      ({title, explain, body} = this[`render_${decision.kind}`](decision));
    } else {
      // A newer server may ask something this client does not know yet.
      title = t('elgrande.panel.unknown');
      body = h('p', {}, t('elgrande.panel.unknown_explain', {kind: decision.kind}));
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
      decision ? h('span', {class: 'your-turn-flag'}, t('elgrande.panel.your_turn')) : null,
      h('h2', {id: 'decision-title'}, title),
      ctx.deadline && decision ? countdown(ctx.deadline, 'long', {'data-testid': 'deadline'}) : null),
    decision && ctx.timeouts > 0 ? this.timeoutWarning() : null,
    explain ? h('p', {class: 'explain'}, explain) : null,
    h('fieldset', {class: 'decision-body', disabled: Boolean(busy)}, body),
    ctx.canUndo && decision ? h('div', {class: 'actions undo'},
      h('button', {
        type: 'button', class: 'secondary', 'data-testid': 'undo', disabled: Boolean(busy),
        onClick: () => this.send({type: 'undo'}),
      }, t('elgrande.panel.undo'))) : null,
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
    const left = table && table.on_timeout === 'replace_seat' ? (table.replace_after || 3) - timeouts : 0;
    const text = left > 0 ? t('elgrande.panel.timeouts_left', {n: timeouts, left}) : t('elgrande.panel.timeouts', {n: timeouts});
    return h('p', {class: 'timeout-warning', role: 'note', 'data-testid': 'timeout-warning'}, icon('clock'), ` ${text}`);
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
        waitText(view, who)));
    }
    if (view.phase === 'veto_window' && view.announced && view.active !== undefined) {
      parts.push(h('p', {}, t('elgrande.panel.announced', {who: names[view.active], action: describeAction(view.announced, this.ctx)})));
    }
    if (view.phase === 'disk_setting') {
      const set = view.players.map((p, seat) => (p.disk_set ? names[seat] : null)).filter(Boolean);
      if (set.length) parts.push(h('p', {}, t('elgrande.panel.disks_set', {who: formatList(set, 'unit')})));
    }
    if (this.ctx.lost) parts.push(h('p', {class: 'muted'}, t('elgrande.panel.lost_seat')));
    else if (this.ctx.mySeat === null) parts.push(h('p', {class: 'muted'}, t('elgrande.panel.spectator')));
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
      h('p', {class: 'winner-line'}, t('elgrande.winner_line', {winners: formatList(winners.map((s) => names[s])), n: winners.length})),
      h('table', {class: 'final-table'},
        h('thead', {}, h('tr', {}, h('th', {}, t('elgrande.final.place')), h('th', {}, t('elgrande.final.player')), h('th', {}, t('elgrande.final.score')),
          rated ? h('th', {}, t('elgrande.final.rating')) : null)),
        h('tbody', {}, ranking.map((r) => {
          const player = table && table.seats[r.seat] && table.seats[r.seat].player;
          return h('tr', {class: winners.includes(r.seat) ? 'winner' : '', 'data-testid': `final-score-${r.seat}`},
            h('td', {}, String(1 + scores.filter((score) => score > r.score).length)),  // equal scores share a place
            h('td', {}, colourBadge(r.seat, view), ' ', player ? profileLink(player, names[r.seat]) : names[r.seat]),
            h('td', {class: 'num'}, String(r.score)),
            rated ? ratingChangeCell(changeOf(rated, table, r.seat), `rating-change-${r.seat}`) : null);
        }))),
      ratingStory(rated, table, names),
      h('a', {href: '#/', class: 'button', 'data-testid': 'back-to-lobby'}, t('elgrande.back_to_lobby')));
  }

  // --- power_card ------------------------------------------------------------------------

  render_power_card(d) {
    const selected = this.draft.value;
    const playable = new Set(d.playable);
    this.hand = {playable, selected, onSelect: (value) => this.set({value})};
    const body = [
      h('p', {}, selected
        ? t('elgrande.power.would_take', {value: String(selected), n: GRANTED[selected]})
        : t('elgrande.power.pick')),
      submitButton('submit-play', selected ? t('elgrande.power.play', {value: String(selected)}) : t('elgrande.power.play_selected'), Boolean(selected) && playable.has(selected),
        () => this.send({type: 'play_power_card', value: selected})),
    ];
    return {
      title: t('elgrande.power.title'),
      explain: t('elgrande.power.explain'),
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
        key: `${keyPrefix}province`, label: t('elgrande.take.from_province'), note: ` ${t('elgrande.n_there', {n: province})}`, value: d.takeProvince,
        min: atLeast, max: Math.min(province, upTo - fromRegions),
        onChange: (v) => {
          // Regions come into play only once the province is empty.
          this.set({takeProvince: v, takeRegions: v === province ? d.takeRegions : {}});
        },
      }),
    ];
    const regionEntries = Object.entries(regions || {}).filter(([, n]) => n > 0);
    if (regionEntries.length && province < upTo) {
      rows.push(h('p', {class: 'muted'}, t(provinceEmptied ? 'elgrande.take.province_empty' : 'elgrande.take.province_first')));
      for (const [area, n] of regionEntries) {
        const value = d.takeRegions[area] || 0;
        rows.push(stepper({
          key: `${keyPrefix}${area}`, label: t('elgrande.from_area_label', {area: areaName(area)}), note: ` ${t('elgrande.n_there', {n})}`, value,
          max: Math.min(n, upTo - total + value), disabled: !provinceEmptied,
          onChange: (v) => this.set({takeRegions: {...d.takeRegions, [area]: v}}),
        }));
      }
      if (provinceEmptied && total < upTo) {
        this.board = {
          clickable: new Set(regionEntries.filter(([a, n]) => (d.takeRegions[a] || 0) < n).map(([a]) => a)),
          badges: badgesOf(d.takeRegions, '−'),
          hint: () => t('elgrande.take.hint'),
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
      title: t('elgrande.take.title'),
      explain: d.at_least
        ? t('elgrande.take.explain_1995', {value: String(me.played), n: d.up_to, at_least: d.at_least})
        : t('elgrande.take.explain', {value: String(me.played), n: d.up_to}),
      body: this.takeControls(d.up_to, d.province, d.regions, 'take-', 'submit-take',
        (n) => t('elgrande.take.submit', {n}), d.at_least || 0),
    };
  }

  // --- action_card --------------------------------------------------------------------------

  render_action_card(d) {
    const selected = this.draft.card;
    const offered = new Set(d.offered);
    this.offer = {offered, selected, onSelect: (id) => this.set({card: id})};
    const c = selected !== undefined ? card(selected) : null;
    return {
      title: t('elgrande.card_choice.title'),
      explain: t('elgrande.card_choice.explain'),
      body: [
        c ? h('div', {class: 'picked-card'}, h('strong', {}, `${c.title} `), h('span', {class: 'stack-badge'}, String(c.stack)), h('p', {}, c.text))
          : h('p', {class: 'muted'}, t('elgrande.card_choice.none')),
        submitButton('submit-card', c ? t('elgrande.card_choice.take', {card: c.title}) : t('elgrande.card_choice.take_selected'), Boolean(c) && offered.has(selected),
          () => this.send({type: 'take_action_card', card: selected})),
      ],
    };
  }

  // --- use_action_card ------------------------------------------------------------------------

  render_use_action_card(d) {
    const c = card(d.card);
    if (!this.draft.part) this.draft.part = d.may_place ? 'place' : 'special';
    const part = d.may_place && d.may_act ? this.draft.part : (d.may_place ? 'place' : 'special');
    const tabs = h('div', {class: 'parts', role: 'group', 'aria-label': t('elgrande.use.parts')},
      choiceButton({
        testid: 'part-place', label: d.may_place ? t('elgrande.use.placement', {n: d.place_up_to}) : t('elgrande.use.placement_done'),
        pressed: part === 'place', disabled: !d.may_place, onClick: () => this.set({part: 'place'}),
      }),
      choiceButton({
        testid: 'part-special', label: t(d.may_act ? 'elgrande.use.special' : 'elgrande.use.special_done'),
        pressed: part === 'special', disabled: !d.may_act, onClick: () => this.set({part: 'special'}),
      }));
    const body = [
      h('div', {class: 'picked-card'}, h('strong', {}, `${c.title} `), h('span', {class: 'stack-badge'}, String(c.stack)), h('p', {}, c.text)),
      tabs,
      part === 'place' ? this.placement(d) : special(this, d),
    ];
    return {
      title: t('elgrande.use.title', {card: c.title}),
      explain: t('elgrande.use.explain'),
      body,
    };
  }

  placement(d) {
    const draft = this.draft;
    if (!draft.place) draft.place = {};
    const into = d.place_into;
    const total = sum(draft.place);
    const rows = [h('p', {class: 'muted'},
      t('elgrande.place.explain', {n: d.place_up_to, court: this.me().court}))];
    const list = h('div', {class: 'stepper-list'});
    for (const area of into) {
      const value = draft.place[area] || 0;
      list.append(stepper({
        key: `place-${area}`, label: areaName(area), value, max: d.place_up_to - total + value,
        onChange: (v) => this.set({place: {...draft.place, [area]: v}}),
      }));
    }
    rows.push(list);
    if (total < d.place_up_to) {
      this.board = {
        clickable: new Set(into), badges: badgesOf(draft.place, '+'), dimOthers: true,
        hint: () => t('elgrande.place.hint'),
        onActivate: (area) => this.addOne('place', area),
      };
    } else {
      this.board = {clickable: new Set(), badges: badgesOf(draft.place, '+'), onActivate: () => {}};
    }
    rows.push(h('div', {class: 'actions'},
      submitButton('submit-place', t('elgrande.place.submit', {n: total}), total <= d.place_up_to,
        () => this.send({type: 'place_caballeros', to: nonZero(draft.place)})),
      total ? h('button', {type: 'button', class: 'secondary', 'data-testid': 'place-reset', onClick: () => this.set({place: {}})}, t('elgrande.place.clear')) : null));
    return h('div', {class: 'part', 'data-part': 'place'}, rows);
  }


  // --- veto ---------------------------------------------------------------------------------

  render_veto(d) {
    const {view, names} = this.ctx;
    const c = card(d.card);
    const action = view.announced ? describeAction(view.announced, {...this.ctx, seat: d.actor}) : t('elgrande.veto.use_the_card');
    return {
      title: t('elgrande.veto.title', {who: names[d.actor]}),
      explain: t('elgrande.veto.explain', {who: names[d.actor], card: c.title, action}),
      body: h('div', {class: 'actions'},
        submitButton('submit-veto-yes', t('elgrande.veto.yes'), true, () => this.send({type: 'answer_veto', veto: true}), 'danger'),
        submitButton('submit-veto-no', t('elgrande.veto.no'), true, () => this.send({type: 'answer_veto', veto: false}), 'secondary')),
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
        key: 'return-court', label: t('elgrande.return.from_court'), note: ` ${t('elgrande.n_there', {n: d.court})}`, value: draft.court,
        max: Math.min(d.court, d.count - total + draft.court), onChange: (v) => this.set({court: v}),
      }),
    ];
    const entries = Object.entries(d.regions || {}).filter(([, n]) => n > 0);
    for (const [area, n] of entries) {
      const value = draft.regions[area] || 0;
      rows.push(stepper({
        key: `return-${area}`, label: t('elgrande.from_area_label', {area: areaName(area)}), note: ` ${t('elgrande.n_there', {n})}`, value,
        max: Math.min(n, d.count - total + value), onChange: (v) => this.set({regions: {...draft.regions, [area]: v}}),
      }));
    }
    if (total < d.count) {
      this.board = {
        clickable: new Set(entries.filter(([a, n]) => (draft.regions[a] || 0) < n).map(([a]) => a)),
        badges: badgesOf(draft.regions, '−'), dimOthers: true, hint: () => t('elgrande.return.hint'),
        onActivate: (area) => this.addOne('regions', area),
      };
    } else {
      this.board = {clickable: new Set(), badges: badgesOf(draft.regions, '−'), onActivate: () => {}};
    }
    rows.push(h('p', {class: total === d.count ? 'ok' : 'muted'}, t('elgrande.return.chosen', {n: total, count: d.count})));
    rows.push(h('div', {class: 'actions'}, submitButton('submit-return', t('elgrande.return.submit', {n: d.count}), total === d.count,
      () => this.send({type: 'return_caballeros', from_court: draft.court, from_regions: nonZero(draft.regions)}))));
    return {
      title: t('elgrande.return.title', {n: d.count}),
      explain: t('elgrande.return.explain', {n: d.count}),
      body: rows,
    };
  }

  // --- disk -----------------------------------------------------------------------------------

  render_disk(d) {
    const {view} = this.ctx;
    const me = this.me();
    const chosen = this.draft.region;
    const allowed = d.allowed || [];
    let explain;
    if (d.purpose === 'eviction') {
      explain = view.evicted_from ? t('elgrande.disk.explain.eviction', {area: areaName(view.evicted_from)}) : t('elgrande.disk.explain.eviction_any');
    }
    else if (hasKey(`elgrande.disk.explain.${d.purpose}`)) explain = t(`elgrande.disk.explain.${d.purpose}`, {n: me.castillo ?? 0});
    else explain = t('elgrande.disk.explain_other', {purpose: purposeText(d.purpose)});
    this.board = {
      clickable: new Set(allowed), badges: chosen ? {[chosen]: '◉'} : {}, dimOthers: true,
      hint: () => t('elgrande.disk.hint'), onActivate: (area) => this.set({region: area}),
    };
    return {
      title: t('elgrande.disk.title'),
      explain,
      body: [
        h('div', {class: 'choices', role: 'group', 'aria-label': t('elgrande.disk.regions')},
          allowed.map((area) => choiceButton({
            testid: `choice-disk-${area}`, label: areaName(area), pressed: chosen === area,
            onClick: () => this.set({region: area}),
          }))),
        h('div', {class: 'actions'}, submitButton('submit-disk', chosen ? t('elgrande.disk.submit', {area: areaName(chosen)}) : t('elgrande.disk.choose'),
          Boolean(chosen) && allowed.includes(chosen), () => this.send({type: 'set_disk', region: chosen}))),
      ],
    };
  }

  // --- helpers ------------------------------------------------------------------------------------

  me() {
    return this.ctx.view.players[this.ctx.mySeat];
  }
}
