/* Fixture emulation of Quora's qevents.js: qp('init', id) and
   qp('track', name) send q.quora.com/_/ad/<id>/pixel?tag=<name>. */
(function () {
  var qp = window.qp; if (!qp || qp.qp) return;
  var ids = [];
  qp.qp = function (cmd, a) {
    if (cmd === "init") ids.push(a);
    else if (cmd === "track") ids.forEach(function (id) {
      new Image().src = "https://q.quora.com/_/ad/" + id + "/pixel?tag=" + encodeURIComponent(a) + "&noscript=0&ts=" + Date.now();
    });
  };
  var q = qp.queue || []; qp.queue = [];
  q.forEach(function (a) { qp.qp.apply(qp, a); });
})();
