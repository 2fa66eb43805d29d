// One WebSocket to the server's /ws, speaking the envelope of docs/protocol.md: requests
// carry an id and resolve on "<type>.ok" or reject on "error"; pushes go to listeners.

import {hasKey, t} from './i18n.js';

export const PROTOCOL_VERSION = 2;  // 2: game updates carry view patches (viewpatch.js)

export class ServerError extends Error {
  constructor(payload) {
    super(payload.message || payload.code);  // the server's English, for the console
    this.code = payload.code;
    this.reason = payload.reason;
    this.until = payload.until;  // banned, or muted: till when (absent: for good)
    this.moderatorReason = payload.moderator_reason;
    this.detail = payload.why || payload.limit;  // which rate or cap (protocol.md, Error codes)
    this.max = payload.max;
    // rate_limited after failed sign-ins: when to try again.
    this.retryAfterMs = payload.retry_after_ms;
  }
}

// A temporary problem of the server (protocol.md, Error codes: its disk is full or
// failing): nothing changed, and the same request may succeed a moment later.

export function isTemporary(err) {
  return Boolean(err) && err.code === 'unavailable';
}

// A game.command that answered an older version than the game's (protocol.md, Error
// codes): another answer or a timeout came first and nothing changed. Not alarming: the
// update that moved the game on has come or is on its way.
export function isStale(err) {
  return Boolean(err) && err.code === 'stale_version';
}

// A refusal in the player's words, from its code (and an illegal command's reason): the
// server's own message is English, for programs. `context` says what was refused ("Could
// not join"); the temporary problem and a lost connection need none.
export function refusalText(err, context = t('error.context.server_refused')) {
  if (isTemporary(err) || (err && err.code === 'disconnected')) return errorText(err);
  return t('error.with_context', {context, error: errorText(err)});
}

// The most precise text the catalog has: for the code and its reason ("illegal_command" of
// a "wrong_command"), for a sanction with an end, or for the code alone.
export function errorText(err) {
  const code = err && err.code;
  const params = {until: err && err.until, why: (err && err.moderatorReason) || '', max: err && err.max};
  for (const key of [err && err.reason && `error.${code}.${err.reason}`, err && err.detail && `error.${code}.${err.detail}`,
    err && err.until && `error.${code}.until`, `error.${code}`]) {
    if (key && hasKey(key)) return t(key, params);
  }
  return t('error.unknown', {code: String(code)});
}

// The close code of a connection whose account session was ended, here or on another device
// (protocol.md, Close codes): its token is dead, so reconnecting with it is pointless.
export const SESSION_ENDED = 4001;
// A moderator banned the player (its reason says until when and why): the same token would
// only be refused again.
export const BANNED = 4003;

export class Connection {
  constructor(url) {
    this.url = url;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    this.state = 'closed';
    this.retryDelay = 500;
    this.retryTimer = null;
    // Back online: at once, rather than at the end of a wait that may have grown to 8 s.
    window.addEventListener('online', () => {
      if (this.state === 'closed') this.connect();
    });
  }

  on(type, handler) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(handler);
  }

  off(type, handler) {
    const handlers = this.listeners.get(type) || [];
    if (handlers.includes(handler)) handlers.splice(handlers.indexOf(handler), 1);
  }

  emit(type, payload) {
    for (const handler of this.listeners.get(type) || []) handler(payload);
  }

  setState(state) {
    this.state = state;
    this.emit('state', state);
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.setState('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.retryDelay = 500;
      this.setState('open');
      this.emit('open');
    });
    ws.addEventListener('message', (event) => {
      if (ws !== this.ws) return;
      this.receive(event.data);
    });
    ws.addEventListener('close', (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.failPending();
      this.setState('closed');
      if (event.code === SESSION_ENDED) {
        // The app forgets the token and decides when to connect again, without it.
        this.emit('session_ended');
        return;
      }
      if (event.code === BANNED) {
        this.emit('banned', event.reason);
        return;
      }
      // Reconnect on our own: an identity outlives its connections (protocol.md, Reconnection).
      // Offline, the browser's "online" does it instead (above).
      if (!navigator.onLine) return;
      this.retryTimer = setTimeout(() => this.connect(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 8000);
    });
  }

  // Drops the connection and opens a new one (resynchronises after a missed update).
  reconnect() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      this.failPending();
      old.close();
    }
    this.retryDelay = 500;
    this.connect();
  }

  failPending() {
    for (const {reject} of this.pending.values()) {
      reject(new ServerError({code: 'disconnected', message: 'The connection to the server was lost.', reason: 'lost'}));  // i18n-ignore: the console's; errorText says it
    }
    this.pending.clear();
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const payload = message.payload || {};
    if (message.id !== undefined && this.pending.has(message.id)) {
      const {resolve, reject, type} = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === `${type}.ok`) resolve(payload);
      else if (message.type === 'error') reject(new ServerError(payload));
      else reject(new ServerError({code: 'unexpected', message: `unexpected reply ${message.type}`}));  // i18n-ignore: the console's
      return;
    }
    if (message.type === 'error') {
      this.emit('error', new ServerError(payload));
      return;
    }
    this.emit(message.type, payload);
  }

  request(type, payload = {}) {
    if (!this.ws || this.state !== 'open') {
      return Promise.reject(new ServerError({code: 'disconnected', message: 'Not connected to the server.', reason: 'not_connected'}));  // i18n-ignore: as above
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {resolve, reject, type});
      this.ws.send(JSON.stringify({type, id, payload}));
    });
  }
}

export function serverUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}
