/* Fixture emulation of HubSpot's analytics script: a page view
   (track.hubspot.com/__ptq.gif?k=1&a=<hub id>) on load, custom events from
   the _hsq queue (k=3&n=<event>). */
(function () {
  var m = /\/([0-9]+)\.js/.exec((document.currentScript && document.currentScript.src) || "");
  if (!m || window.__hubspotFixture) return; window.__hubspotFixture = true;
  var vi = Math.random().toString(16).slice(2);
  function ping(extra) {
    new Image().src = "https://track.hubspot.com/__ptq.gif?" + extra + "&sd=" + screen.width + "x" + screen.height +
      "&cd=24-bit&cs=UTF-8&ln=en-us&bfp=1&v=1.1&a=" + m[1] + "&pu=" + encodeURIComponent(location.href) + "&t=" +
      encodeURIComponent(document.title) + "&cts=" + Date.now() + "&vi=" + vi + "&nc=true&ce=false&cc=15";
  }
  ping("k=1");
  var q = window._hsq = window._hsq || [];
  function run(c) { if (c && c[0] === "trackCustomBehavioralEvent" && c[1]) ping("k=3&n=" + encodeURIComponent(c[1].name)); }
  q.forEach(run);
  q.push = function () { for (var i = 0; i < arguments.length; i++) run(arguments[i]); return 0; };
})();
