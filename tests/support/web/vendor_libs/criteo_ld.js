/* Fixture emulation of Criteo's OneTag (dynamic.criteo.com/js/ld/ld.js):
   reads criteo_q (setAccount, setSiteType, viewHome/viewItem/...) and sends
   one sslwidget.criteo.com/event?a=<account>&p0=e=exd...&p1=e=<vh|vp|...> call. */
(function () {
  var q = window.criteo_q = window.criteo_q || []; if (q.__fixture) return; q.__fixture = true;
  var src = (document.currentScript && document.currentScript.src) || "";
  var account = (/[?&]a=([0-9]+)/.exec(src) || [])[1], site = "d";
  var codes = { viewHome: "vh", viewItem: "vp", viewList: "vl", viewBasket: "vb", trackTransaction: "vc", viewPage: "vpg" };
  function handle(items) {
    var events = [];
    items.forEach(function (o) {
      if (!o) return;
      if (o.event === "setAccount") account = o.account;
      else if (o.event === "setSiteType") site = o.type;
      else if (codes[o.event]) events.push(codes[o.event]);
    });
    events.forEach(function (code) {
      fetch("https://sslwidget.criteo.com/event?a=" + account + "&v=5.23.0&otl=1&p0=" +
        encodeURIComponent("e=exd&site_type=" + site) + "&p1=" + encodeURIComponent("e=" + code) +
        "&adce=1&tld=" + location.hostname + "&fu=" + encodeURIComponent(location.href) + "&ceid=" +
        Math.random().toString(16).slice(2) + "&dtycbr=" + Math.floor(Math.random() * 1e5),
        { mode: "no-cors", credentials: "include", keepalive: true });
    });
  }
  handle([].concat.apply([], q));
  q.push = function () { handle([].concat.apply([], arguments)); return 0; };
})();
