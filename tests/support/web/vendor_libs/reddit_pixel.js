/* Fixture emulation of Reddit's pixel.js: rdt('init', id) and
   rdt('track', event) send alb.reddit.com/rp.gif?id=<id>&event=<event>. */
(function () {
  var r = window.rdt; if (!r || r.sendEvent) return;
  var ids = [];
  r.sendEvent = function (cmd, a) {
    if (cmd === "init") ids.push(a);
    else if (cmd === "track") ids.forEach(function (id) {
      new Image().src = "https://alb.reddit.com/rp.gif?ts=" + Date.now() + "&id=" + id + "&event=" + encodeURIComponent(a) +
        "&uuid=" + Math.random().toString(16).slice(2) + "&integration=reddit&opt_out=0&sh=" + screen.height +
        "&sw=" + screen.width + "&v=rdt_fixture";
    });
  };
  var q = r.callQueue || []; r.callQueue = [];
  q.forEach(function (args) { r.sendEvent.apply(r, args); });
})();
