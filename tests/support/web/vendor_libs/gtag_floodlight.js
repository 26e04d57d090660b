/* Fixture emulation of gtag.js's Floodlight (DC-) destination, served after
   gtag.js for gtag/js?id=DC-...: an event whose send_to is
   "DC-<src>/<type>/<cat>+<counting>" fires the Floodlight activity, in an
   iframe (fls.doubleclick.net/activityi) when allow_custom_scripts is set,
   else as an image (ad.doubleclick.net/activity). */
(function () {
  var dl = window.dataLayer = window.dataLayer || [];
  if (dl.__floodlightFixture) return; dl.__floodlightFixture = true;
  function fire(sendTo, p) {
    var m = /^DC-([0-9]+)\/([^\/]+)\/([^+]+)(?:\+(.+))?$/.exec(sendTo); if (!m) return;
    var q = "src=" + m[1] + ";type=" + m[2] + ";cat=" + m[3] + ";ord=" + Math.floor(Math.random() * 1e13) +
      ";npa=0;auiddc=1." + Math.floor(Date.now() / 1000) + ";u1=" + encodeURIComponent(p.u1 || "") +
      ";gtm=45fe;~oref=" + encodeURIComponent(location.href) + "?";
    if (p.allow_custom_scripts) {
      var f = document.createElement("iframe"); f.width = f.height = "1"; f.style.display = "none";
      f.src = "https://" + m[1] + ".fls.doubleclick.net/activityi;" + q;
      (document.body || document.documentElement).appendChild(f);
    } else {
      new Image().src = "https://ad.doubleclick.net/activity;register_conversion=1;" + q;
    }
  }
  function handle(a) {
    if (a && a[0] === "event" && a[2] && /^DC-/.test(a[2].send_to || "")) fire(a[2].send_to, a[2]);
  }
  for (var i = 0; i < dl.length; i++) handle(dl[i]);
  var push = dl.push;
  dl.push = function () { var r = push.apply(dl, arguments); for (var j = 0; j < arguments.length; j++) handle(arguments[j]); return r; };
})();
