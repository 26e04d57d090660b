/* Fixture emulation of X's uwt.js: twq('config', id) sends a page view,
   twq('track', name) an event; each as adsct pixels to t.co and
   analytics.twitter.com with txn_id and events=[["<event>",{}]]. */
(function () {
  var twq = window.twq; if (!twq || twq.exe) return;
  var ids = [];
  function send(id, ev, data) {
    var q = "bci=3&eci=2&event_id=" + Math.random().toString(16).slice(2) +
      "&events=" + encodeURIComponent(JSON.stringify([[ev, data || {}]])) + "&integration=advertiser&p_id=Twitter" +
      "&p_user_id=0&pl_id=" + Math.random().toString(16).slice(2) + "&tw_document_href=" + encodeURIComponent(location.href) +
      "&tw_iframe_status=0&txn_id=" + id + "&type=javascript&version=2.3.30";
    new Image().src = "https://t.co/1/i/adsct?" + q;
    new Image().src = "https://analytics.twitter.com/1/i/adsct?" + q;
  }
  twq.exe = function (cmd, a, b) {
    if (cmd === "config") { ids.push(a); send(a, "pageview"); }
    else if (cmd === "init") ids.push(a);
    else if (cmd === "track") ids.forEach(function (id) { send(id, a, b); });
  };
  var q = twq.queue || []; twq.queue = [];
  q.forEach(function (args) { twq.exe.apply(twq, args); });
})();
