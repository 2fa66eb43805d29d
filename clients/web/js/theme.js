// Light or dark before the first paint: a classic script in <head> (the page's policy allows no
// inline script), so that the page never flashes the other colours. The choice kept on this
// device (settings.js), else the system's. settings.js follows later changes.
(function applyTheme() {
  var theme = 'system';
  try {
    theme = JSON.parse(localStorage.getItem('elgrande.settings') || '{}').theme || 'system';
  } catch (e) {
    // Unreadable settings: the system decides.
  }
  if (theme !== 'light' && theme !== 'dark') theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;
}());
