// A third-party script (tests/support/web/sites/longtail-storage.example): three writes,
// one with a key past the 256-character cap, one value with non-ASCII text (UTF-8 size).
(function () {
  localStorage.setItem("tp_visitor", "secret-visitor-value-\u00e9");
  sessionStorage.setItem("tp_session", "secret-session-value");
  localStorage.setItem(new Array(301).join("k"), "v");
})();
