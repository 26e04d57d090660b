/* Fixture emulation of Taboola's tfa.js (cdn.taboola.com/libtrc/unip/<id>/tfa.js):
   each _tfa {notify: 'event', name, id} sends
   trc.taboola.com/<id>/log/3/unip?en=<name>. */
(function () {
  var q = window._tfa = window._tfa || []; if (q.__fixture) return; q.__fixture = true;
  var fromSrc = (/\/unip\/([0-9]+)\//.exec((document.currentScript && document.currentScript.src) || "") || [])[1];
  function send(e) {
    if (!e || e.notify !== "event") return;
    new Image().src = "https://trc.taboola.com/" + (e.id || fromSrc) + "/log/3/unip?en=" + encodeURIComponent(e.name) +
      "&tim=" + Date.now() + "&item-url=" + encodeURIComponent(location.href) + "&ref=" +
      encodeURIComponent(document.referrer) + "&ui=" + Math.random().toString(16).slice(2) + "&cv=20240115-3-RELEASE";
  }
  q.forEach(send);
  var push = q.push;
  q.push = function () { for (var i = 0; i < arguments.length; i++) send(arguments[i]); return push.apply(q, arguments); };
})();
