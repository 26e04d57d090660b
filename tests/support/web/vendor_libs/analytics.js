/* Fixture emulation of Universal Analytics' analytics.js: processes ga.q and
   sends Measurement Protocol v1 hits to /collect. */
(function () {
  var name = window.GoogleAnalyticsObject || "ga"; var ga = window[name]; if (!ga || ga.__fixture) return;
  var trackers = [];
  function cid() {
    var m = document.cookie.match(/(?:^|; )_ga=([^;]+)/);
    if (m) return m[1].split(".").slice(-2).join(".");
    var v = Math.floor(Math.random() * 1e9) + "." + Math.floor(Date.now() / 1000);
    document.cookie = "_ga=GA1.2." + v + "; path=/; max-age=63072000"; return v;
  }
  function run(cmd, a, b) {
    if (cmd === "create") trackers.push(a);
    else if (cmd === "send") trackers.forEach(function (tid) {
      new Image().src = "https://www.google-analytics.com/collect?v=1&_v=j101&t=" + encodeURIComponent(a) + "&tid=" + tid +
        "&cid=" + cid() + "&dl=" + encodeURIComponent(location.href) + (b && b.eventCategory ? "&ec=" + encodeURIComponent(b.eventCategory) : "");
    });
  }
  var q = ga.q || []; window[name] = function () { run.apply(null, arguments); }; window[name].__fixture = true;
  q.forEach(function (args) { run.apply(null, args); });
})();
