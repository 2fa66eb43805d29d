// What the store needs of the connection, recorded: requests answered by `answers`
// (type → payload, or a function of the payload, or an Error to refuse with), reconnections
// counted.
export class FakeConnection {
  constructor(answers = {}) {
    this.answers = answers;
    this.requests = [];
    this.reconnects = 0;
  }

  request(type, payload) {
    this.requests.push({type, payload});
    const answer = this.answers[type];
    if (answer instanceof Error) return Promise.reject(answer);
    if (typeof answer === 'function') return Promise.resolve(answer(payload));
    if (answer === undefined) return Promise.reject(Object.assign(new Error('no answer'), {code: 'disconnected'}));
    return Promise.resolve(answer);
  }

  reconnect() {
    this.reconnects++;
  }
}

export function refusal(code, message = code) {
  return Object.assign(new Error(message), {code});
}

// A table as the server sends it (protocol.md, Table): seats of players, bots or empty.
export function table(id, {status = 'playing', seats = [], name = `Table ${id}`, ...rest} = {}) {
  return {id, name, status, host: 1, options: {players: seats.length || 3}, seats, ...rest};
}

export const player = (id, name) => ({kind: 'player', player: {id, name}});
export const bot = (level = 'medium') => ({kind: 'bot', level});

export function seated(...seats) {
  return seats.map((s, seat) => ({seat, ...s}));
}
