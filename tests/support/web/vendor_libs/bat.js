/* Fixture emulation of Microsoft's bat.js (UET): the snippet builds
   new UET({ti, q}) and pushes "pageLoad"; pushes send bat.bing.com/action/0
   hits (ti, evt, ea for custom events). */
(function () {
  if (window.UET) return;
  function rnd() { return Math.random().toString(16).slice(2, 10); }
  function UET(o) {
    this.ti = o.ti; this.mid = rnd() + "-" + rnd();
    var q = o.q || [];
    for (var i = 0; i < q.length; i++) {
      if (q[i] === "event") { this.push("event", q[i + 1], q[i + 2]); i += 2; } else this.push(q[i]);
    }
  }
  UET.prototype.send = function (q) {
    new Image().src = "https://bat.bing.com/action/0?ti=" + this.ti + "&tm=al001&Ver=2&mid=" + this.mid + "&sid=" + rnd() +
      "&vid=" + rnd() + "&vids=1&msclkid=N&" + q + "&p=" + encodeURIComponent(location.href) + "&r=" +
      encodeURIComponent(document.referrer) + "&sw=" + screen.width + "&sh=" + screen.height + "&sc=24&tl=" +
      encodeURIComponent(document.title) + "&lg=en-US&rn=" + Math.floor(Math.random() * 1e6);
  };
  UET.prototype.push = function (cmd, action, params) {
    if (cmd === "pageLoad") this.send("evt=pageLoad");
    else if (cmd === "event") this.send("evt=custom&ea=" + encodeURIComponent(action) +
      (params && params.event_category ? "&ec=" + encodeURIComponent(params.event_category) : ""));
  };
  window.UET = UET;
})();
