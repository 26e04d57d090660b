/* Fixture emulation of gtag.js served by a server-side GTM container (first
   party): GA4 page views go to the server container (config's
   server_container_url / transport_url, else the host serving this script)
   instead of google-analytics.com. */
(function () {
  var dl = window.dataLayer = window.dataLayer || [];
  if (dl.__sgtmFixture) return; dl.__sgtmFixture = true;
  var origin = new URL(document.currentScript.src).origin;
  function handle(a) {
    if (!a || a[0] !== "config" || !/^G-/.test(a[1])) return;
    var o = a[2] || {}, base = (o.server_container_url || o.transport_url || origin).replace(/\/$/, "");
    navigator.sendBeacon(base + "/g/collect?v=2&tid=" + a[1] + "&gtm=45je&_p=" + Date.now() + "&cid=" +
      Math.floor(Math.random() * 1e9) + "." + Math.floor(Date.now() / 1000) + "&ul=en-us&en=page_view&dl=" +
      encodeURIComponent(location.href) + "&dt=" + encodeURIComponent(document.title));
  }
  for (var i = 0; i < dl.length; i++) handle(dl[i]);
  var push = dl.push;
  dl.push = function () { var r = push.apply(dl, arguments); for (var j = 0; j < arguments.length; j++) handle(arguments[j]); return r; };
})();
