/* Fixture emulation of Pinterest's core.js: replays the pintrk queue;
   'load' sends event=init, 'page' event=pagevisit and 'track' the named
   event to ct.pinterest.com/v3/ with the tag id in tid. */
(function () {
  var p = window.pintrk; if (!p || p.__fixture) return;
  var tags = [];
  function send(ev, data) {
    tags.forEach(function (tid) {
      new Image().src = "https://ct.pinterest.com/v3/?event=" + encodeURIComponent(ev) + "&ed=" +
        encodeURIComponent(JSON.stringify(data || {})) + "&tid=" + tid + "&cb=" + Date.now() + "&noscript=0";
    });
  }
  function run(a) {
    if (a[0] === "load") { tags.push(a[1]); send("init"); }
    else if (a[0] === "page") send("pagevisit", a[1]);
    else if (a[0] === "track") send(a[1], a[2]);
  }
  var q = p.queue || [];
  window.pintrk = function () { run(Array.prototype.slice.call(arguments)); };
  window.pintrk.__fixture = true; window.pintrk.queue = []; window.pintrk.version = "3.0";
  q.forEach(run);
})();
