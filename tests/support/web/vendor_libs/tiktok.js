/* Fixture emulation of TikTok's events.js: sends JSON hits to /api/v2/pixel
   with the pixel code in context.pixel.code, like the real library. */
(function () {
  var ttq = window[window.TiktokAnalyticsObject || "ttq"]; if (!ttq || ttq.__fixture) return; ttq.__fixture = true;
  var codes = Object.keys(ttq._i || {});
  function send(event, props) {
    codes.forEach(function (code) {
      var body = JSON.stringify({ event: event, message_id: String(Math.random()), event_id: "", is_onsite: false,
        timestamp: new Date().toISOString(), context: { pixel: { code: code, runtime: "1" }, page: { url: location.href, referrer: document.referrer } },
        properties: props || {} });
      fetch("https://analytics.tiktok.com/api/v2/pixel", { method: "POST", body: body, headers: { "Content-Type": "application/json" }, keepalive: true });
    });
  }
  function run(name, args) { if (name === "page") send("Pageview", {}); else if (name === "track") send(args[0], args[1]); }
  (ttq.slice ? ttq.slice() : []).forEach(function (c) { run(c[0], Array.prototype.slice.call(c, 1)); });
  ["page", "track"].forEach(function (m) { ttq[m] = function () { run(m, Array.prototype.slice.call(arguments)); }; });
  ttq.length = 0;
})();
