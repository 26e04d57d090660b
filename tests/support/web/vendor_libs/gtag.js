/* Fixture emulation of Google's gtag.js (GA4 + Google Ads): reads the
   dataLayer like the real library and sends GA4 hits to /g/collect and Google
   Ads hits to /pagead/. */
(function () {
  var dl = window.dataLayer = window.dataLayer || [];
  if (dl.__gtagFixture) return; dl.__gtagFixture = true;
  var configs = [];
  function cid() {
    var m = document.cookie.match(/(?:^|; )_ga=([^;]+)/);
    if (m) return m[1].split(".").slice(-2).join(".");
    var v = Math.floor(Math.random() * 1e9) + "." + Math.floor(Date.now() / 1000);
    document.cookie = "_ga=GA1.1." + v + "; path=/; max-age=63072000";
    return v;
  }
  function ga4(id, name, params) {
    var q = "v=2&tid=" + id + "&gtm=45je&_p=" + Date.now() + "&cid=" + cid() + "&ul=en-us&sr=1366x900&en=" +
      encodeURIComponent(name) + "&dl=" + encodeURIComponent(location.href) + "&dt=" + encodeURIComponent(document.title);
    for (var k in (params || {})) {
      var v = params[k]; if (typeof v === "object") continue;
      q += (typeof v === "number" ? "&epn." : "&ep.") + encodeURIComponent(k) + "=" + encodeURIComponent(v);
    }
    var url = "https://region1.google-analytics.com/g/collect?" + q;
    if (!(navigator.sendBeacon && navigator.sendBeacon(url))) fetch(url, { method: "POST", keepalive: true, mode: "no-cors" });
  }
  function ads(id, label, conversion) {
    var num = id.replace(/^AW-/, "");
    var path = conversion ? "/pagead/conversion/" : "/pagead/viewthroughconversion/";
    var host = conversion ? "https://www.googleadservices.com" : "https://googleads.g.doubleclick.net";
    new Image().src = host + path + num + "/?random=" + Date.now() + "&cv=11&fst=" + Date.now() +
      (label ? "&label=" + encodeURIComponent(label) : "") + "&url=" + encodeURIComponent(location.href);
  }
  function handle(args) {
    if (!args || typeof args !== "object" || args.length === undefined) return;
    var cmd = args[0];
    if (cmd === "config") {
      configs.push(args[1]);
      if (/^G-/.test(args[1])) ga4(args[1], "page_view", args[2]);
      if (/^AW-/.test(args[1])) ads(args[1], null, false);
    } else if (cmd === "event") {
      var p = args[2] || {};
      if (p.send_to && /^AW-/.test(p.send_to)) { var s = p.send_to.split("/"); ads(s[0], s[1], true); return; }
      configs.forEach(function (id) { if (/^G-/.test(id)) ga4(id, args[1], p); });
    }
  }
  for (var i = 0; i < dl.length; i++) handle(dl[i]);
  var push = dl.push;
  dl.push = function () { var r = push.apply(dl, arguments); for (var j = 0; j < arguments.length; j++) handle(arguments[j]); return r; };
})();
