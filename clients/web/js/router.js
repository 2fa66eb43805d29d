// The client's addresses: which screen an address (the part after #) names, and which link
// of the top bar is its section. No DOM here; main.js shows the screen.
//
//   #/                        the lobby (also any address the client does not know)
//   #/table/ID                a table: its waiting room, game or final scores
//   #/account                 the account page
//   #/notices                 the account's e-mail address and notices
//   #/verify-email/TOKEN      a mailed link that confirms an address
//   #/reset-password/TOKEN    a mailed link that sets a new password
//   #/tournaments             the tournaments
//   #/tournament/ID           one tournament's page
//   #/ratings[/LADDER[/PAGE]] the leaderboards
//   #/player/ID               a player's ratings
//   #/replay/ID[/VERSION]     a finished game's replay, at a version (docs/replays.md)

// {screen, ...} for an address: screen is one of lobby, table (id), account, tournaments,
// tournament (id), ratings (ladder or null, page from 1), player (id), notices,
// verify-email and reset-password (token), replay (id, and version when named).
export function parseRoute(hash) {
  const table = hash.match(/^#\/table\/(\d+)/);
  if (/^#\/account\b/.test(hash)) return {screen: 'account'};
  if (/^#\/notices\/?$/.test(hash)) return {screen: 'notices'};
  const link = hash.match(/^#\/(verify-email|reset-password)\/([A-Za-z0-9_-]{1,256})\/?$/);
  if (link) return {screen: link[1], token: link[2]};
  const event = hash.match(/^#\/tournament\/(\d+)/);
  if (event) return {screen: 'tournament', id: Number(event[1])};
  if (/^#\/tournaments\b/.test(hash)) return {screen: 'tournaments'};
  const ladder = hash.match(/^#\/ratings(?:\/([\w-]+)(?:\/(\d+))?)?\/?$/);
  if (ladder) return {screen: 'ratings', ladder: ladder[1] || null, page: Number(ladder[2] || 1)};
  const player = hash.match(/^#\/player\/(\d+)/);
  if (player) return {screen: 'player', id: Number(player[1])};
  const replay = hash.match(/^#\/replay\/(\d+)(?:\/(\d+))?\/?$/);
  if (replay) return replay[2] === undefined ? {screen: 'replay', id: Number(replay[1])} : {screen: 'replay', id: Number(replay[1]), version: Number(replay[2])};
  if (table) return {screen: 'table', id: Number(table[1])};
  return {screen: 'lobby'};
}

// The top bar's link (its hash) that is current on a screen: a tournament's page is under
// Tournaments, a player's ratings under Ratings; a table is under none.
export function sectionOf(route) {
  switch (route.screen) {
    case 'account':
    case 'notices': return '#/account';
    case 'verify-email':
    case 'reset-password': return null;
    case 'tournament':
    case 'tournaments': return '#/tournaments';
    case 'ratings':
    case 'player': return '#/ratings';
    case 'table':
    case 'replay': return null;
    default: return '#/';
  }
}

// The table a route shows, or null.
export function tableOf(route) {
  return route.screen === 'table' ? route.id : null;
}

export const tableHash = (id) => `#/table/${id}`;

// A mailed link's screen: it works before (and without) a hello.
export const isMailedLink = (route) => route.screen === 'verify-email' || route.screen === 'reset-password';
