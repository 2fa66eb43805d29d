// The game screen: players, action cards on offer, the map, my hand, the decision panel
// and the event log of one table.

import {h, clear, icon, replaceKeepingFocus} from '../../dom.js';
import {Board} from './board.js';
import {DecisionPanel} from './decisions.js';
import {GRANTED, areaName, card, decisionWords, ladderName, ladderOf, phaseName, touchedAreas} from './texts.js';
import {formatList, t, tParts} from '../../i18n.js';
import {colourBadge, colourOf} from './colours.js';
import {botLevelName, mySeatAt, seatNames, seatNote} from '../../seats.js';
import {errorText, isStale, isTemporary, refusalText} from '../../connection.js';
import {limitText, policyText} from '../../time.js';
import {playerButton} from '../../blocks.js';
import {LogPanel} from './logpanel.js';
import {tableName} from '../../words.js';
import {changeOf, ratingBadge, ratingChangeCell, ratingStory} from '../../ratings.js';

export class GameScreen {
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.busy = false;
    this.awaitVersion = null;
    this.error = null;
    this.note = null;
    this.handMode = null;
    this.offerMode = null;
    this.board = new Board();

    this.statusBar = h('div', {class: 'status-bar', 'data-testid': 'status'});
    this.tableInfo = h('div', {class: 'table-info', 'data-testid': 'table-info'});
    this.banner = h('div', {class: 'watcher-banner', role: 'status', 'data-testid': 'watcher-banner', hidden: true});
    this.playersPanel = h('div', {class: 'players', 'data-testid': 'players'});
    this.offerPanel = h('div', {class: 'offer', 'data-testid': 'offer'});
    this.handPanel = h('div', {class: 'hand-area'});
    this.decisionBox = h('div', {class: 'decision', 'aria-labelledby': 'decision-title'});
    this.log = new LogPanel(app, tableId);
    // New events in words, and that a decision is mine, said politely (without interrupting).
    this.announcer = h('div', {class: 'sr-only', role: 'status', 'aria-live': 'polite', 'data-testid': 'announcer'});
    // On a phone the map is drawn at the screen's width; enlarged, it scrolls at full size.
    this.boardFrame = h('div', {class: 'board-frame', 'data-testid': 'board-frame'}, this.board.svg);
    this.zoomButton = h('button', {
      type: 'button', class: 'secondary small map-zoom', 'aria-pressed': 'false', 'data-testid': 'map-zoom',
      onClick: () => this.zoomMap(this.zoomButton.getAttribute('aria-pressed') !== 'true'),
    }, t('elgrande.map.enlarge'));
    this.tools = h('div', {class: 'table-tools'});
    this.chatInput = h('input', {type: 'text', maxlength: 500, placeholder: t('elgrande.chat.placeholder'), 'aria-label': t('elgrande.chat.label'), 'data-testid': 'chat-input'});
    // A refusal (a mute says until when and why) stays under the input until the next line.
    this.chatError = h('p', {class: 'error chat-error', role: 'alert', hidden: true, 'data-testid': 'chat-error'});
    this.chat = h('form', {class: 'chat', onSubmit: (event) => {
      event.preventDefault();
      const text = this.chatInput.value.trim();
      if (!text) return;
      this.chatError.hidden = true;
      this.app.conn.request('table.chat', {table: this.tableId, text}).then(() => {
        this.chatInput.value = '';
      }, (err) => {
        this.chatError.textContent = refusalText(err, t('elgrande.chat.refused'));
        this.chatError.hidden = false;
      });
    }}, this.chatInput, h('button', {type: 'submit', class: 'secondary small'}, t('elgrande.chat.send')));
    this.resignStep = false;

    this.decision = new DecisionPanel(this.decisionBox, {
      submit: (command, version) => this.submit(command, version),
      // A tap on the map brings the sheet's button that answers back in sight (revealAnswer).
      setBoard: (interaction) => this.board.setInteraction(interaction && {...interaction, onActivate: (area) => {
        this.revealed = null;
        interaction.onActivate(area);
      }}),
      setHand: (mode) => {
        this.handMode = mode;
        this.renderHand();
        this.setChoice();
      },
      setOffer: (mode) => {
        this.offerMode = mode;
        this.renderOffer();
        this.setChoice();
      },
    });

    // Three columns on a wide screen. On a phone one column, in the order of play: the
    // status, the map and hand, the decision, the log, then the players and cards (main.css).
    this.root = h('div', {class: 'game-screen', 'data-testid': 'game-screen', 'data-table': String(tableId)},
      h('a', {href: '#', class: 'skip-link skip-to-decision', onClick: (event) => {
        event.preventDefault();
        const first = this.decisionBox.querySelector('button:not(:disabled), select, input, [tabindex="0"]') || this.decisionBox;
        first.focus();
      }}, t('elgrande.screen.skip_to_decision')),
      this.announcer,
      h('aside', {class: 'column left-column', 'aria-label': t('elgrande.screen.left')},
        this.tableInfo,
        h('section', {class: 'players-section', 'aria-labelledby': 'players-title'},
          h('h2', {class: 'panel-title', id: 'players-title'}, t('elgrande.screen.players')), this.playersPanel),
        h('section', {class: 'offer-section', 'aria-labelledby': 'offer-title'},
          h('h2', {class: 'panel-title', id: 'offer-title'}, t('elgrande.screen.offer')), this.offerPanel),
        this.tools),
      h('section', {class: 'column center-column', 'aria-label': t('elgrande.screen.board')},
        this.banner,
        this.statusBar,
        h('div', {class: 'map-section'}, this.boardFrame, this.zoomButton),
        this.handPanel),
      h('aside', {class: 'column right-column', 'aria-label': t('elgrande.screen.right')},
        this.decisionBox,
        h('div', {class: 'log-section'},
          h('h2', {class: 'panel-title', id: 'log-title'}, t('elgrande.screen.log')),
          this.log.box,
          this.chat,
          this.chatError)));
    this.decisionBox.tabIndex = -1;
    this.sheetTop = 0;  // where the player scrolled the decision's sheet (revealAnswer)
    this.decisionBox.addEventListener('scroll', () => {
      this.sheetTop = this.decisionBox.scrollTop;
    });
  }

  // Where the decision's choice is made, for the phone's order: the hand (a power card), the
  // cards on offer (an action card), or the map and the panel.
  setChoice() {
    this.root.dataset.choice = this.handMode ? 'hand' : this.offerMode ? 'offer' : 'panel';
    this.revealAnswer();
  }

  // On a phone my decision is a sheet at the screen's foot that scrolls by itself (main.css):
  // a new decision, or part of one, or a tap on the map, shows its first button that answers
  // at the sheet's foot; another redraw keeps where the sheet was scrolled (replacing the
  // panel resets it).
  revealAnswer() {
    const box = this.decisionBox;
    const section = box.firstElementChild;
    const part = section && section.querySelector('[data-part]');
    const key = section ? `${section.dataset.key}:${part ? part.dataset.part : ''}` : null;
    const answer = box.querySelector('button.submit');
    if (key !== this.revealed && answer && box.scrollHeight > box.clientHeight) {
      const below = answer.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
      if (below > -10) box.scrollTop += below + 10;
    } else if (key === this.revealed) {
      box.scrollTop = this.sheetTop;
    }
    this.revealed = key;
    this.sheetTop = box.scrollTop;
  }

  zoomMap(on) {
    this.zoomButton.setAttribute('aria-pressed', String(on));
    this.zoomButton.textContent = t(on ? 'elgrande.map.fit' : 'elgrande.map.enlarge');
    this.boardFrame.classList.toggle('zoomed', on);
    // Enlarged, the frame scrolls: the keyboard's arrows scroll it once it has focus.
    if (on) {
      this.boardFrame.tabIndex = 0;
      this.boardFrame.setAttribute('role', 'region');
      this.boardFrame.setAttribute('aria-label', t('elgrande.map.enlarged'));
    } else {
      this.boardFrame.removeAttribute('tabindex');
      this.boardFrame.removeAttribute('role');
      this.boardFrame.removeAttribute('aria-label');
    }
  }

  // After a choice made by keyboard (a click with detail 0: Enter or Space), focus goes to
  // the button that sends it, so that Enter again plays it.
  focusSubmit(event) {
    if (event.detail !== 0) return;
    const submit = this.decisionBox.querySelector('button.submit:not(:disabled)');
    if (submit) submit.focus();
  }

  // The countdowns tick by the app's one clock (time.js): nothing of ours to stop.
  destroy() {}

  get table() {
    return this.app.store.tables.get(this.tableId);
  }

  get game() {
    return this.app.store.games.get(this.tableId);
  }

  // The seat whose view I get: null for a spectator, and for a player whose seat a bot
  // took (resigned or replaced), who gets the spectator's view.
  get mySeat() {
    const view = this.game && this.game.view;
    return view && view.viewer !== undefined ? view.viewer : null;
  }

  // My seat at this table, including one a bot plays for me now.
  get ownSeat() {
    return mySeatAt(this.table, this.app.store.me) ?? this.mySeat;
  }

  // The Seat a bot took from me (protocol.md, Seat: resigned or replaced), or null.
  get lostSeat() {
    const table = this.table;
    const seat = this.ownSeat !== null && table ? table.seats[this.ownSeat] : null;
    return seat && seat.kind === 'bot' ? seat : null;
  }

  // Seats by name, mine marked "(you)", or "(bot for you)" once a bot plays it.
  names() {
    const lost = this.lostSeat;
    const names = seatNames(this.table, lost ? null : this.ownSeat);
    if (lost) names[lost.seat] = t('elgrande.bot_for_you', {name: names[lost.seat]});
    return names;
  }

  update() {
    const game = this.game;
    if (!game) return;
    const view = game.view;
    if (this.awaitVersion !== null && view.version >= this.awaitVersion) {
      this.busy = false;
      this.awaitVersion = null;
    }
    // A seat a bot took (resigned, or replaced after timeouts) is not ours to answer for:
    // the game goes on and we watch it.
    const lost = this.lostSeat;
    this.resigned = Boolean(lost);
    const names = this.names();
    this.renderStatus(view, names);
    this.renderPlayers(view, names);
    this.board.update(view, {names, mySeat: this.mySeat ?? -1});
    if (game.events && game.events.length && game.version !== this.flashedVersion) {
      this.flashedVersion = game.version;
      // A general scoring touches every region: flashing them all would say nothing.
      const scorings = game.events.filter((e) => e.type === 'area_scored').length;
      this.board.flash(game.events.flatMap((e) => (e.type === 'area_scored' && scorings > 3 ? [] : touchedAreas(e))));
    }
    // A refusal stays on screen until the game moves on or another decision comes.
    if ((this.error || this.note) && !this.busy && view.version !== this.errorVersion) this.error = this.note = null;
    const decisionKey = view.decision && !lost ? JSON.stringify(view.decision) : null;
    let turn = null;
    if (decisionKey !== this.lastDecisionKey) {
      this.lastDecisionKey = decisionKey;
      if (!this.busy) this.error = this.note = null;
      if (decisionKey) turn = t('elgrande.your_turn', {what: decisionWords(view.decision.kind) || t('elgrande.decide')});
    }
    this.renderTools(view);
    this.renderTableInfo();
    this.renderBanner(view, lost);
    const mine = this.ownSeat !== null && this.table ? this.table.seats[this.ownSeat] : null;
    this.decision.update({
      view, version: game.version, decision: this.resigned ? null : view.decision || null, names, mySeat: this.mySeat,
      table: this.table, lost, timeouts: mine && mine.kind === 'human' ? mine.timeouts || 0 : 0,
      deadline: game.deadline, canUndo: game.canUndo && !this.resigned, busy: this.busy, error: this.error,
      errorTemporary: this.errorTemporary, note: this.note,
      rated: this.app.store.rated.get(this.tableId) || null,
    });
    const news = this.log.render();
    if (this.log.sticks) this.log.box.scrollTop = this.log.box.scrollHeight;
    const said = [...news, turn].filter(Boolean).join(' ');
    if (said) this.announcer.textContent = said;
    this.app.pageTitle(this.table ? tableName(this.table) : t('elgrande.a_game'));
  }

  // `version`: that of the game.update whose decision is answered, so that the server
  // refuses the command (stale_version) rather than apply it to a later decision.
  submit(command, version) {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.errorTemporary = false;
    this.note = null;
    this.update();
    this.app.conn.request('game.command', {table: this.tableId, command, version}).then((reply) => {
      this.awaitVersion = reply.version;
      this.update();
    }, (err) => {
      this.busy = false;
      this.awaitVersion = null;
      this.errorVersion = this.game ? this.game.view.version : null;
      if (isStale(err)) {
        // Nothing went wrong: the panel follows the newer update, so a quiet word is enough.
        this.note = errorText(err);
        this.update();
        return;
      }
      // "unavailable": the server could not save it; the same answer may be sent again.
      this.errorTemporary = isTemporary(err);
      this.error = refusalText(err);
      this.update();
    });
  }

  renderTools(view) {
    const seated = this.mySeat !== null;
    const playing = view.phase !== 'game_over' && !(this.table && this.table.status === 'finished');
    const parts = [];
    if (seated && playing && !this.resigned) {
      if (!this.resignStep) {
        parts.push(h('button', {type: 'button', class: 'secondary small', 'data-testid': 'resign', onClick: () => {
          this.resignStep = true;
          this.update();
        }}, t('elgrande.resign.button')));
      } else {
        parts.push(h('div', {class: 'resign-confirm'}, t('elgrande.resign.question'),
          h('button', {type: 'button', class: 'danger small', 'data-testid': 'resign-confirm', onClick: () => {
            this.resignStep = false;
            this.app.resign(this.tableId);
          }}, t('elgrande.resign.confirm')),
          h('button', {type: 'button', class: 'secondary small', 'data-testid': 'resign-cancel', onClick: () => {
            this.resignStep = false;
            this.update();
          }}, t('elgrande.resign.cancel'))));
      }
    }
    replaceKeepingFocus(this.tools, parts);
  }

  // The table's name and its clock: the turn limit and what a timeout costs.
  renderTableInfo() {
    const table = this.table;
    if (!table) return;
    const policy = policyText(table, true);
    replaceKeepingFocus(this.tableInfo,
      h('h1', {class: 'table-name', 'data-testid': 'table-name'}, tableName(table)),
      h('div', {class: 'time-rule', 'data-testid': 'time-rule'},
        icon('clock'), ` ${limitText(table)}`,
        policy ? h('span', {class: 'muted'}, t('elgrande.policy', {policy})) : null),
      table.rated ? h('div', {class: 'muted', 'data-testid': 'table-rated'}, t('elgrande.rated', {ladder: ladderName(ladderOf(table.options))})) : null,
      table.options.edition === '1995' ? h('div', {class: 'muted', 'data-testid': 'table-edition'}, t('elgrande.rules_1995')) : null);
  }

  // A player whose seat a bot took keeps watching: say so plainly.
  renderBanner(view, lost) {
    this.banner.hidden = !lost;
    if (!lost) {
      replaceKeepingFocus(this.banner);
      return;
    }
    const over = view.phase === 'game_over';
    const n = lost.timeouts || (this.table && this.table.replace_after);
    const why = lost.resigned ? t('elgrande.banner.resigned')
      : n ? t('elgrande.banner.replaced', {n}) : t('elgrande.banner.replaced_repeatedly');
    this.banner.dataset.reason = lost.resigned ? 'resigned' : 'replaced';
    replaceKeepingFocus(this.banner,
      h('span', {class: 'banner-icon'}, icon(lost.resigned ? 'flag' : 'clock')),
      h('span', {},
        h('strong', {}, why),
        ` ${t(over ? 'elgrande.banner.over' : 'elgrande.banner.watching')}`),
      h('a', {href: '#/', class: 'button secondary small'}, t('elgrande.back_to_lobby')));
  }

  renderStatus(view, names) {
    const rounds = view.options.short_game ? 6 : 9;
    const king = h('span', {class: 'status-item'}, ...tParts('elgrande.status.king', {area: h('strong', {}, areaName(view.king))}));
    const boards = Object.entries(view.scoreboards || {}).map(([board, at]) =>
      h('span', {class: 'status-item'}, ...tParts('elgrande.status.scoreboard', {board: board === 'eight_four_zero' ? '8·4·0' : '4·0·0', area: h('strong', {}, areaName(at))})));
    const turn = view.phase === 'game_over' ? null : h('span', {class: 'status-item turn', 'data-testid': 'whose-turn'},
      (view.waiting_for || []).length
        ? tParts('elgrande.status.to_play', {who: h('strong', {}, formatList((view.waiting_for || []).map((s) => names[s]), 'unit'))})
        : '');
    replaceKeepingFocus(this.statusBar,
      h('span', {class: 'status-item round', 'data-testid': 'round', 'data-round': String(view.round)},
        view.phase === 'game_over' ? t('elgrande.status.final') : t('elgrande.status.round', {round: view.round}),
        h('small', {}, ` ${t('elgrande.status.rounds_played', {n: view.rounds_played, rounds})}`)),
      h('span', {class: 'status-item'}, phaseName(view.phase)),
      h('span', {class: 'status-item'}, t('elgrande.status.scorings', {n: view.general_scorings})),
      king, ...boards, turn);
  }

  renderPlayers(view, names) {
    const table = this.table;
    const waiting = new Set(view.waiting_for || []);
    const order = view.turn_order || [];
    const cards = view.players.map((p, seat) => {
      const col = colourOf(seat, view.options);
      const seatInfo = table ? table.seats[seat] : null;
      const isMe = seat === this.ownSeat;
      const turnPos = order.indexOf(seat);
      const tags = [];
      if (seat === view.first_player) tags.push(h('span', {class: 'tag', title: t('elgrande.player.first_title')}, t('elgrande.player.first')));
      if (p.live_vetoes) tags.push(h('span', {class: 'tag veto', title: t('elgrande.player.veto_title')}, t('elgrande.player.veto', {n: p.live_vetoes})));
      if (view.phase === 'disk_setting' && p.disk_set) tags.push(h('span', {class: 'tag'}, t('elgrande.player.disk_set')));
      const note = seatNote(seatInfo, table);
      if (seatInfo && seatInfo.kind === 'bot' && !note) tags.push(h('span', {class: 'tag'}, t('elgrande.player.bot', {level: botLevelName(seatInfo.level)})));
      if (note) {
        tags.push(h('span', {class: `tag note ${note.kind}`, 'data-testid': `seat-note-${seat}`, 'data-note': note.kind},
          icon(note.icon), ` ${note.text}`));
      }
      if (seatInfo && seatInfo.kind === 'human' && !seatInfo.connected) tags.push(h('span', {class: 'tag offline'}, t('elgrande.player.offline')));
      return h('div', {
        class: ['player-card', isMe && 'me', waiting.has(seat) && 'to-play', view.active === seat && 'active'],
        style: {'--c': col.fill}, 'data-testid': `player-${seat}`, 'data-seat': String(seat),
      },
      h('div', {class: 'player-head'},
        colourBadge(seat, view),
        h('span', {class: 'player-name'}, names[seat]),
        playerButton(this.app, seatInfo && seatInfo.player, this.tableId),
        h('span', {class: 'player-score', title: t('elgrande.player.score'), 'data-testid': `score-${seat}`}, String(p.score))),
      seatInfo && seatInfo.kind === 'human' && seatInfo.rating
        ? h('div', {class: 'player-rating', 'data-testid': `player-rating-${seat}`}, ratingBadge(seatInfo.rating, {}, {label: true})) : null,
      h('dl', {class: 'player-stats'},
        stat(t('elgrande.player.court'), p.court, t('elgrande.player.court_title')),
        stat(t('elgrande.player.province'), p.province, t('elgrande.player.province_title')),
        stat(t('elgrande.player.hand'), p.hand_count, t('elgrande.player.hand_title')),
        p.castillo !== undefined ? stat(t('elgrande.player.castillo'), p.castillo, t('elgrande.player.castillo_title')) : null),
      h('div', {class: 'player-foot'},
        h('span', {class: `played-card${p.played ? '' : ' none'}`, title: t('elgrande.player.played_title')},
          p.played ? t('elgrande.player.played', {value: String(p.played)}) : t('elgrande.player.no_card')),
        turnPos >= 0 ? h('span', {class: 'tag'}, t('elgrande.player.turn', {n: String(turnPos + 1)})) : null,
        waiting.has(seat) ? h('span', {class: 'tag to-play-tag'}, t(isMe && !this.resigned ? 'elgrande.player.your_move' : 'elgrande.player.thinking')) : null,
        ...tags));
    });
    if (view.automa) {
      const a = view.automa;
      const col = colourOf(view.options.players, view.options);
      cards.push(h('div', {class: 'player-card automa', style: {'--c': col.fill}},
        h('div', {class: 'player-head'}, colourBadge(view.options.players, view), h('span', {class: 'player-name'}, t('elgrande.player.automa'))),
        h('dl', {class: 'player-stats'}, stat(t('elgrande.player.supply'), a.supply), stat(t('elgrande.player.power_deck'), a.power_cards_left)),
        h('div', {class: 'player-foot'}, h('span', {class: `played-card${a.played ? '' : ' none'}`}, a.played ? t('elgrande.player.played', {value: String(a.played)}) : t('elgrande.player.no_card')))));
    }
    replaceKeepingFocus(this.playersPanel, cards);
  }

  renderOffer() {
    const game = this.game;
    if (!game) return;
    const view = game.view;
    const mode = this.offerMode;
    const items = (view.offered || []).map((id) => {
      const c = card(id);
      const enabled = Boolean(mode && mode.offered.has(id));
      const content = [
        h('span', {class: 'stack-badge', title: t('elgrande.offer.stack', {n: c.stack})}, String(c.stack)),
        h('span', {class: 'card-title'}, c.title),
        h('span', {class: 'card-text'}, c.text),
      ];
      if (!mode) return h('li', {class: `action-card stack-${c.stack}`, 'data-card': String(id)}, content);
      return h('li', {},
        h('button', {
          type: 'button', class: `action-card stack-${c.stack}`, 'data-testid': `offer-card-${id}`, 'data-card': String(id), 'data-kind': c.kind,
          'aria-pressed': String(mode.selected === id), disabled: !enabled, onClick: (event) => {
            mode.onSelect(id);
            this.focusSubmit(event);
          },
        }, content));
    });
    const current = view.card !== undefined && view.phase !== 'choose_action_card' && view.active !== undefined
      ? h('p', {class: 'in-use'}, ...tParts('elgrande.offer.in_use', {who: this.names()[view.active], card: h('strong', {}, card(view.card).title)})) : null;
    replaceKeepingFocus(this.offerPanel,
      h('ul', {class: `offer-list${mode ? ' choosing' : ''}`}, items),
      current,
      h('p', {class: 'stacks muted'}, t('elgrande.offer.stacks', {sizes: (view.stack_sizes || []).join(' · ')})));
  }

  renderHand() {
    const game = this.game;
    if (!game) return;
    const view = game.view;
    const me = this.mySeat !== null ? view.players[this.mySeat] : null;
    if (!me || !me.hand || this.resigned) {
      // Spectators have no hand (nothing secret is shown to them), nor has a player whose
      // seat a bot took.
      clear(this.handPanel);
      this.handPanel.hidden = true;
      return;
    }
    this.handPanel.hidden = false;
    const mode = this.handMode;
    const inHand = new Set(me.hand);
    const discards = new Set(me.discards || []);
    const cards = [];
    for (let v = 1; v <= 13; v++) {
      if (!inHand.has(v)) continue;
      const playable = Boolean(mode && mode.playable.has(v));
      cards.push(h('button', {
        type: 'button', class: 'power-card', 'data-testid': `power-card-${v}`, 'data-value': String(v),
        disabled: !playable, 'aria-pressed': String(Boolean(mode && mode.selected === v)),
        // Spoken as shown: the card's number, then the caballeros it grants.
        'aria-label': t(mode && !playable ? 'elgrande.hand.card_unplayable' : 'elgrande.hand.card', {value: String(v), n: GRANTED[v]}),
        onClick: (event) => {
          if (!mode) return;
          mode.onSelect(v);
          this.focusSubmit(event);
        },
      }, h('span', {class: 'power-value'}, String(v)), ' ', h('span', {class: 'power-grant'}, `${GRANTED[v]} `, h('span', {'aria-hidden': 'true'}, '♞'))));
    }
    replaceKeepingFocus(this.handPanel,
      h('div', {class: 'hand', 'data-testid': 'hand', role: 'group', 'aria-label': t('elgrande.hand.title')},
        h('h2', {class: 'panel-title'}, t('elgrande.hand.title')),
        h('div', {class: 'hand-cards'}, cards.length ? cards : h('p', {class: 'muted'}, t('elgrande.hand.empty'))),
        discards.size ? h('p', {class: 'muted discards'}, t('elgrande.hand.played', {values: [...discards].join(', ')})) : null));
  }
}

function stat(label, value, title) {
  return h('div', {class: 'stat', title},
    h('dt', {}, label),
    h('dd', {}, String(value)));
}

// The final scores of a finished game whose board the server no longer sends.
export function finishedTable(table, rated) {
  const names = seatNames(table, null);
  const {scores, winners} = table.result;
  const ranking = scores.map((score, seat) => ({score, seat})).sort((a, b) => b.score - a.score);
  return h('div', {class: 'waiting-room panel', 'data-testid': 'final-scores'},
    h('h1', {}, t('elgrande.final.title', {table: tableName(table)})),
    h('p', {class: 'winner-line'}, t('elgrande.winner_line', {winners: formatList(winners.map((s) => names[s])), n: winners.length})),
    h('table', {class: 'final-table'},
      h('tbody', {}, ranking.map((r, i) => h('tr', {class: winners.includes(r.seat) ? 'winner' : '', 'data-testid': `final-score-${r.seat}`},
        h('td', {}, String(i + 1)), h('td', {}, colourBadge(r.seat, table), ' ', names[r.seat]), h('td', {class: 'num'}, String(r.score)),
        rated ? ratingChangeCell(changeOf(rated, table, r.seat), `rating-change-${r.seat}`) : null)))),
    ratingStory(rated, table, names),
    h('p', {}, h('a', {href: '#/', class: 'button secondary'}, t('elgrande.back_to_lobby'))));
}
