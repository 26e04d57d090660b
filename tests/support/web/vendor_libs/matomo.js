/* Fixture emulation of Matomo's matomo.js: applies setTrackerUrl/setSiteId
   first (like the real one), then sends trackPageView / trackEvent from _paq
   to the tracker URL as image requests (idsite, rec=1, action_name, e_c/e_a). */
(function () {
  var paq = window._paq = window._paq || []; if (paq.__fixture) return; paq.__fixture = true;
  var tracker = null, site = null, vid = Math.random().toString(16).slice(2, 18);
  function send(extra) {
    new Image().src = tracker + "?idsite=" + site + "&rec=1&r=" + Math.floor(Math.random() * 1e6) + "&url=" +
      encodeURIComponent(location.href) + "&urlref=" + encodeURIComponent(document.referrer) + "&_id=" + vid +
      "&_idn=1&send_image=1&res=" + screen.width + "x" + screen.height + extra;
  }
  function setup(c) { if (c[0] === "setTrackerUrl") tracker = c[1]; else if (c[0] === "setSiteId") site = c[1]; }
  function run(c) {
    if (c[0] === "trackPageView") send("&action_name=" + encodeURIComponent(c[1] || document.title));
    else if (c[0] === "trackEvent") send("&e_c=" + encodeURIComponent(c[1]) + "&e_a=" + encodeURIComponent(c[2]));
  }
  paq.forEach(setup); paq.forEach(run);
  paq.push = function () { for (var i = 0; i < arguments.length; i++) { setup(arguments[i]); run(arguments[i]); } return 0; };
})();
