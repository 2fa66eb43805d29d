// Who this browser plays as: the server's token and the chosen name, kept in localStorage so
// that a reload, or a return days later, speaks for the same player. The token is a guest's
// or an account's session token; `username` is set for the latter, so that a session that
// ended is told apart from a guest the server forgot (docs/accounts.md).

const KEY = 'elgrande.identity';

const NOBODY = {token: null, name: null, id: null, username: null};

export function loadIdentity() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || '{}');
    return {
      token: typeof stored.token === 'string' ? stored.token : null,
      name: typeof stored.name === 'string' ? stored.name : null,
      id: Number.isInteger(stored.id) ? stored.id : null,
      username: typeof stored.username === 'string' ? stored.username : null,
    };
  } catch {
    return {...NOBODY};
  }
}

export function saveIdentity(identity) {
  localStorage.setItem(KEY, JSON.stringify({
    token: identity.token, name: identity.name, id: identity.id, username: identity.username || null,
  }));
}

export function forgetToken(identity) {
  const next = {...identity, token: null, id: null, username: null};
  saveIdentity(next);
  return next;
}

// Signing out: neither token nor name stays, so the welcome screen asks again. Only the dead
// token is forgotten: another tab may have stored a new one since.
export function forgetIdentity(deadToken) {
  const stored = loadIdentity();
  if (stored.token === null || stored.token === deadToken) localStorage.removeItem(KEY);
  return {...NOBODY};
}

// The server counts names in bytes of UTF-8 (1 to 32).
export function nameBytes(name) {
  return new TextEncoder().encode(name).length;
}
