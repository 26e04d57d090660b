/* Fixture emulation of Microsoft's clarity.js: the first upload, a JSON
   envelope ({e: [version, seq, ..., projectId, userId, sessionId, ...], a: [...]})
   POSTed to k.clarity.ms/collect. */
(function () {
  var c = window.clarity; if (!c || !c.projectId || c.__fixture) return; c.__fixture = true;
  var env = ["0.7.49", 1, 0, Date.now(), c.projectId, Math.random().toString(36).slice(2, 9),
    Math.random().toString(36).slice(2, 9), 1, 0, 0, location.href];
  fetch("https://k.clarity.ms/collect", { method: "POST", mode: "no-cors", credentials: "include",
    body: JSON.stringify({ e: env, a: [[0, 4, 0, location.href]] }) });
})();
