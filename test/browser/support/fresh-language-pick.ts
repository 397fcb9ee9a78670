// Loaded before every browser test file (web-test-runner.config.mjs). <code-snippet> keeps the reader's language
// pick in localStorage, which every test file's page shares (one origin), and the elements keep nothing else there:
// each test starts with it empty, so a pick made by an earlier test does not choose the tab a later one opens on.
beforeEach(function emptyLocalStorage() {
  localStorage.clear();
});
