// The personal block list (protocol.md, player.block): the menu by another player's name
// (Block or Unblock and their Ratings for everyone, Moderate… and, on a chat line, Remove
// this line… for moderators), the confirmation before a block, and the account page's list. The server stops sending a blocked player's chat;
// the lines already on screen are hidden here.

import {h, replaceKeepingFocus} from './dom.js';
import {refusalText} from './connection.js';
import {canModerate, openModeration} from './moderation.js';
import {t} from './i18n.js';

// Whom this player blocks, as the server last said. `revision` tells screens to redraw.
export class BlockList {
  constructor(conn, changed) {
    this.conn = conn;
    this.changed = changed;
    this.players = new Map();
    this.loaded = false;
    this.revision = 0;
  }

  has(id) {
    return this.players.has(id);
  }

  get sorted() {
    return [...this.players.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async load() {
    const {players} = await this.conn.request('player.blocks');
    this.players = new Map(players.map((p) => [p.id, p]));
    this.loaded = true;
    this.bump();
  }

  async block(player) {
    await this.conn.request('player.block', {player: player.id});
    this.players.set(player.id, {id: player.id, name: player.name});
    this.bump();
  }

  async unblock(player) {
    await this.conn.request('player.unblock', {player: player.id});
    this.players.delete(player.id);
    this.bump();
  }

  // Another identity has a list of its own.
  forget() {
    this.players.clear();
    this.loaded = false;
    this.revision++;
  }

  bump() {
    this.revision++;
    this.changed();
  }
}

// The small button by another player's name. By one's own, only on a chat line
// `{id, said}` that a moderator may remove.
export function playerButton(app, player, tableId, line = null) {
  if (!player || !app.store.me) return null;
  const own = player.id === app.store.me.id;
  if (own && !(line && canModerate(app.store.account))) return null;
  const label = own ? t('blocks.menu.own_line') : t('blocks.menu.label', {name: player.name});
  return h('button', {
    type: 'button', class: 'player-button', 'aria-label': label, title: label,
    'aria-haspopup': 'dialog', 'data-testid': `player-menu-${player.id}`,
    onClick: (event) => openPlayerMenu(app, player, tableId, line, event.currentTarget),
  }, '⋯');
}

// A modal dialog, so that focus stays in it and Escape closes it: first what may be done,
// then, for a block, the confirmation. Focus goes back to the button when it closes.
function openPlayerMenu(app, player, tableId, line, opener) {
  const own = player.id === app.store.me.id;
  const {name} = player;
  let next = null;  // a dialog to open once this one is closed, instead of focusing the button
  const body = h('div', {class: 'player-menu-body'});
  const error = h('p', {class: 'error', role: 'alert', hidden: true, 'data-testid': 'player-menu-error'});
  const dialog = h('dialog', {class: 'mod-dialog player-dialog panel', 'aria-labelledby': 'player-menu-title', 'data-testid': 'player-menu'},
    h('h2', {id: 'player-menu-title'}, name), body, error);

  const send = async (button, action, done) => {
    button.disabled = true;
    error.hidden = true;
    try {
      await action();
      dialog.close();
      app.toast(done);
    } catch (err) {
      error.textContent = refusalText(err);
      error.hidden = false;
      button.disabled = false;
    }
  };
  const close = h('button', {type: 'button', class: 'secondary', 'data-testid': 'player-menu-close', onClick: () => dialog.close()}, t('blocks.menu.close'));

  const confirmBlock = () => {
    const yes = h('button', {
      type: 'button', class: 'danger', 'aria-describedby': 'block-means', 'data-testid': 'block-confirm',
      onClick: () => send(yes, () => app.blocks.block(player), t('blocks.blocked', {name})),
    }, t('blocks.confirm.yes', {name}));
    replaceKeepingFocus(body,
      h('p', {id: 'block-means', 'data-testid': 'block-means'}, t('blocks.confirm.question', {name})),
      h('div', {class: 'actions'}, yes,
        h('button', {type: 'button', class: 'secondary', 'data-testid': 'block-cancel', onClick: () => dialog.close()}, t('blocks.confirm.cancel'))));
    yes.focus();
  };

  const choices = [];
  // By one's own name (a moderator's chat line) there is nobody to block.
  if (!own && app.blocks.has(player.id)) {
    const unblock = h('button', {
      type: 'button', class: 'secondary', 'data-testid': 'unblock',
      onClick: () => send(unblock, () => app.blocks.unblock(player), t('blocks.unblocked', {name})),
    }, t('blocks.unblock'));
    choices.push(h('p', {class: 'muted'}, t('blocks.you_block', {name})), unblock);
  } else if (!own) {
    choices.push(h('button', {type: 'button', class: 'secondary', 'data-testid': 'block', onClick: confirmBlock}, t('blocks.menu.block')));
  }
  if (canModerate(app.store.account) && line) {
    choices.push(h('button', {type: 'button', class: 'secondary', 'data-testid': 'remove-line', onClick: () => {
      next = () => openModeration(app, player, tableId, opener, line);
      dialog.close();
    }}, t('blocks.menu.remove_line')));
  }
  if (canModerate(app.store.account) && !own) {
    choices.push(h('button', {type: 'button', class: 'secondary', 'data-testid': 'moderate', onClick: () => {
      next = () => openModeration(app, player, tableId, opener);
      dialog.close();
    }}, t('blocks.menu.moderate')));
  }
  if (!own) {
    // Last, so that a keyboard lands on Block first, as before.
    const href = `#/player/${player.id}`;
    // Closing removes the link, which could then no longer navigate by itself.
    choices.push(h('a', {href, class: 'button secondary', 'data-testid': 'player-profile', onClick: (event) => {
      event.preventDefault();
      dialog.close();
      app.navigate(href);
    }}, t('blocks.menu.ratings')));
  }
  replaceKeepingFocus(body, h('div', {class: 'actions player-menu-choices'}, choices, close));

  dialog.addEventListener('close', () => {
    dialog.remove();
    if (next) next();
    else if (opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
}

// The account page's section, for guests and accounts alike: each blocked player with an
// Unblock button.
export class BlockedPlayers {
  constructor(app) {
    this.app = app;
    this.shown = null;
    this.error = null;
    this.status = h('p', {class: 'ok', role: 'status', 'data-testid': 'blocks-status'});
    this.box = h('div', {class: 'blocks-box', 'data-testid': 'blocks-box', tabindex: -1});
    this.root = h('section', {class: 'panel blocks', 'aria-labelledby': 'blocks-title', 'data-testid': 'blocks'},
      h('h2', {id: 'blocks-title'}, t('blocks.list.title')),
      h('p', {class: 'muted'}, t('blocks.list.explain')),
      this.status, this.box);
    this.render();
  }

  async unblock(player) {
    this.status.textContent = '';
    this.error = null;
    try {
      await this.app.blocks.unblock(player);
      this.status.textContent = t('blocks.list.unblocked', {name: player.name});
    } catch (err) {
      this.error = refusalText(err, t('blocks.list.could_not_unblock'));
    }
    this.render();
  }

  // Redraws only on a change, as the account page's update runs on every table push.
  render() {
    const {blocks} = this.app;
    const shown = `${blocks.revision}|${blocks.loaded}|${this.error}`;
    if (shown === this.shown) return;
    this.shown = shown;
    const players = blocks.sorted;
    let list;
    if (!blocks.loaded && !players.length) list = h('p', {class: 'muted'}, t('blocks.list.loading'));
    else if (!players.length) list = h('p', {class: 'muted', 'data-testid': 'blocks-empty'}, t('blocks.list.empty'));
    else {
      list = h('ul', {class: 'game-list', 'data-testid': 'blocked-list'}, players.map((p) => h('li', {class: 'blocked-row', 'data-testid': `blocked-${p.id}`},
        h('strong', {class: 'table-main'}, p.name),
        h('div', {class: 'table-actions'},
          h('button', {
            type: 'button', class: 'secondary small', 'aria-label': t('blocks.list.unblock_label', {name: p.name}), 'data-testid': `unblock-${p.id}`,
            onClick: () => this.unblock(p),
          }, t('blocks.unblock'))))));
    }
    replaceKeepingFocus(this.box,
      this.error ? h('p', {class: 'error', role: 'alert', 'data-testid': 'blocks-error'}, this.error) : null,
      list);
  }
}
