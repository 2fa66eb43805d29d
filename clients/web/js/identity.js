// Who this browser plays as: the server's token and the chosen name, kept in localStorage so
// that a reload, or a return days later, speaks for the same player.

const KEY = 'elgrande.identity';

export function loadIdentity() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}');
    return {
      token: typeof stored.token === 'string' ? stored.token : null,
      name: typeof stored.name === 'string' ? stored.name : null,
      id: Number.isInteger(stored.id) ? stored.id : null,
    };
  } catch {
    return {token: null, name: null, id: null};
  }
}

export function saveIdentity(identity) {
  localStorage.setItem(KEY, JSON.stringify({token: identity.token, name: identity.name, id: identity.id}));
}

export function forgetToken(identity) {
  const next = {...identity, token: null, id: null};
  saveIdentity(next);
  return next;
}

// The server counts names in bytes of UTF-8 (1 to 32).
export function nameBytes(name) {
  return new TextEncoder().encode(name).length;
}
