// Paint the saved theme before the app loads (no light flash for dark users); the settings
// provider keeps it in step afterwards. Same precedence as features/settings/settings-storage.ts.
(function () {
  var theme = 'light';
  try {
    var read = function (key) {
      try {
        return JSON.parse(localStorage.getItem(key) || 'null');
      } catch (e) {
        return null;
      }
    };
    var settings = read('userSettings');
    var prefs = read('ui-preferences');
    var stored = (settings && settings.theme) || (prefs && prefs.theme) || localStorage.getItem('theme');
    if (stored === 'dark' || stored === 'light') theme = stored;
  } catch (e) {}
  document.documentElement.classList.add(theme);
  document.documentElement.style.colorScheme = theme;
})();
