// The service worker that makes the client installable: it keeps the static shell (the page,
// its style, modules (the games' too), icons and manifest) in a cache, so that an installed client opens at
// once and says "Connecting…" even offline. The cache answers at once, and meanwhile the file
// is asked of the server again (a 304 when unchanged: the server sends ETags). When a file
// has changed, the whole shell is fetched again into the cache at once, so that the next load
// uses the new version of every module and never a mix of two. The game
// itself always comes live from the server: /ws, /api and everything not in the shell pass
// through untouched. It also shows the server's Web Push notices (docs/notifications.md) and
// opens the table (or page) of a notification that is clicked.

// Bump the version when the list below changes; contents refresh by themselves.
const CACHE = 'elgrande-shell-v10';
const SHELL = [
  'index.html', 'manifest.json', 'css/main.css',
  'img/favicon.svg', 'img/favicon-turn.svg', 'img/icon-maskable.svg',
  'js/theme.js', 'js/main.js', 'js/account.js', 'js/alerts.js', 'js/blocks.js', 'js/connection.js', 'js/controls.js',
  'js/dom.js', 'js/i18n.js', 'js/identity.js', 'js/language.js', 'js/lobby.js', 'js/log.js', 'js/mailedlinks.js', 'js/messageformat.js', 'js/moderation.js', 'js/noticeprefs.js',
  'js/notices.js', 'js/noticewords.js', 'js/playnow.js',
  'js/ratings.js', 'js/replay.js', 'js/review.js', 'js/router.js', 'js/seats.js', 'js/settings.js', 'js/store.js', 'js/time.js', 'js/topbar.js',
  'js/tournament.js', 'js/tournaments.js', 'js/tournamentwords.js', 'js/viewpatch.js', 'js/welcome.js', 'js/words.js',
  'js/games/index.js',
  'js/games/elgrande/index.js', 'js/games/elgrande/board.js', 'js/games/elgrande/colours.js',
  'js/games/elgrande/decisionrules.js', 'js/games/elgrande/decisions.js', 'js/games/elgrande/game.js', 'js/games/elgrande/logpanel.js',
  'js/games/elgrande/options.js', 'js/games/elgrande/replay.js', 'js/games/elgrande/specials.js', 'js/games/elgrande/texts.js',
  'lang/en.json',
];
const scope = new URL(self.registration.scope);
const shell = new Set([scope.pathname, ...SHELL.map((path) => new URL(path, scope).pathname)]);
// The other languages' catalogs are kept once the page has read one (a player's own).
const LANG = new URL('lang/', scope).pathname;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

// Older shells go; this worker serves the open pages at once.
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith('elgrande-shell-') && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || url.pathname.startsWith('/ws') || url.pathname.startsWith('/api/')) return;
  if (!shell.has(url.pathname) && !(url.pathname.startsWith(LANG) && url.pathname.endsWith('.json'))) return;
  event.respondWith(cachedThenRevalidated(event, url));
});

async function cachedThenRevalidated(event, url) {
  const cache = await caches.open(CACHE);
  // The address of the folder is the page itself.
  const key = url.pathname === scope.pathname ? 'index.html' : url.pathname;
  const cached = await cache.match(key);
  const fresh = revalidate(cache, event.request, key, cached);
  if (!cached) return fresh;
  event.waitUntil(fresh.catch(() => {}));  // offline: the cached shell is all there is
  return cached;
}

async function revalidate(cache, request, key, cached) {
  const response = await fetch(request);
  if (!response.ok) return response;
  if (!cached) {
    await cache.put(key, response.clone()).catch(() => {});
  } else if (cached.headers.get('ETag') !== response.headers.get('ETag')) {
    // addAll stores all of the shell or nothing of it; a catalog outside it, by itself.
    if (!shell.has(new URL(key, scope).pathname)) await cache.put(key, response.clone()).catch(() => {});
    await cache.addAll(SHELL).catch(() => {});
  }
  return response;
}

// The icon the manifest gives the app.
const ICON = new URL('img/favicon.svg', scope).href;

// A notice the server pushed ({kind, title, body, url, tag}): shown at once, since a push
// subscription promises the browser that every push is visible. The same tag replaces an
// earlier notification rather than stacking another.
self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = {body: event.data ? event.data.text() : ''};
  }
  const title = typeof notice.title === 'string' && notice.title ? notice.title : 'El Grande';
  const options = {body: typeof notice.body === 'string' ? notice.body : '', icon: ICON, data: {url: typeof notice.url === 'string' ? notice.url : './', kind: notice.kind}};
  if (typeof notice.tag === 'string' && notice.tag) options.tag = notice.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

// A turn notification (alerts.js) or a pushed notice: to its page (a table, a tournament), in
// a tab of the client already open if there is one, which the client then navigates.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '', scope).href;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({type: 'window', includeUncontrolled: true});
    const page = pages.find((p) => p.focused) || pages[0];
    if (page) {
      await page.focus();
      page.postMessage({type: 'open', url});
    } else {
      await self.clients.openWindow(url);
    }
  })());
});
