/* Fixture emulation of Meta's fbevents.js: processes the fbq queue, loads the
   pixel config and sends hits to https://www.facebook.com/tr/ like the real one. */
(function () {
  var fbq = window.fbq; if (!fbq || fbq.__fixture) return; fbq.__fixture = true;
  var ids = [];
  function fbp() {
    var m = document.cookie.match(/(?:^|; )_fbp=([^;]+)/);
    if (m) return m[1];
    var v = "fb.1." + Date.now() + "." + Math.floor(Math.random() * 1e9);
    document.cookie = "_fbp=" + v + "; path=/; max-age=7776000";
    return v;
  }
  function send(id, ev, data) {
    var q = "id=" + encodeURIComponent(id) + "&ev=" + encodeURIComponent(ev) + "&dl=" + encodeURIComponent(location.href) +
      "&rl=" + encodeURIComponent(document.referrer) + "&if=false&ts=" + Date.now() + "&fbp=" + encodeURIComponent(fbp());
    for (var k in (data || {})) q += "&cd[" + encodeURIComponent(k) + "]=" + encodeURIComponent(data[k]);
    new Image().src = "https://www.facebook.com/tr/?" + q;
  }
  function call(cmd, a, b, c) {
    if (cmd === "init") {
      ids.push(a);
      var s = document.createElement("script"); s.async = true;
      s.src = "https://connect.facebook.net/signals/config/" + a + "?v=2.9.179&r=stable";
      document.head.appendChild(s);
    } else if (cmd === "track" || cmd === "trackCustom") {
      ids.forEach(function (id) { send(id, a, b); });
    } else if (cmd === "trackSingle") {
      send(a, b, c);
    }
  }
  fbq.callMethod = function () { call.apply(null, arguments); };
  (fbq.queue || []).forEach(function (args) { call.apply(null, args); });
  fbq.queue = [];
})();
