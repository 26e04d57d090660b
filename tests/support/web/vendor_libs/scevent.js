/* Fixture emulation of Snap's scevent.min.js: 'init' loads the pixel config
   (tr.snapchat.com/config/com/<pid>.js); 'track' POSTs a form body
   (pid, ev, ...) to tr.snapchat.com/p. */
(function () {
  var s = window.snaptr; if (!s || s.handleRequest) return;
  var pixels = [];
  function send(pid, ev) {
    var body = "pid=" + pid + "&ev=" + encodeURIComponent(ev) + "&pl=" + encodeURIComponent(location.href) + "&ts=" +
      Date.now() + "&rf=" + encodeURIComponent(document.referrer) + "&v=1.5&u_c1=" + Math.random().toString(16).slice(2);
    fetch("https://tr.snapchat.com/p", { method: "POST", mode: "no-cors", credentials: "include", keepalive: true,
      headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: body });
  }
  s.handleRequest = function (cmd, a) {
    if (cmd === "init") {
      pixels.push(a);
      var c = document.createElement("script"); c.async = true;
      c.src = "https://tr.snapchat.com/config/com/" + a + ".js"; document.head.appendChild(c);
    } else if (cmd === "track") pixels.forEach(function (pid) { send(pid, a); });
  };
  var q = s.queue || []; s.queue = [];
  q.forEach(function (args) { s.handleRequest.apply(s, args); });
})();
