/* Fixture emulation of Yandex Metrica's tag.js: ym(<counter>, 'init', ...)
   sends a page view to mc.yandex.ru/watch/<counter> (fetch, with cookies). */
(function () {
  var ym = window.ym; if (!ym || ym.__fixture) return;
  function hit(id, extra) {
    var info = "pv:1:vf:" + Math.random().toString(36).slice(2) + ":en:utf-8:la:en-US:v:1234:cn:1:rn:" +
      Math.floor(Math.random() * 1e9) + ":w:" + innerWidth + "x" + innerHeight + ":s:" + screen.width + "x" + screen.height +
      ":et:" + Math.floor(Date.now() / 1000) + ":t:" + document.title;
    fetch("https://mc.yandex.ru/watch/" + id + "?wmode=7&page-url=" + encodeURIComponent(location.href) +
      "&charset=utf-8" + (extra || "") + "&browser-info=" + encodeURIComponent(info) + "&t=gdpr(14)ti(1)",
      { mode: "no-cors", credentials: "include", keepalive: true });
  }
  function run(a) {
    if (a[1] === "init") hit(a[0]);
    else if (a[1] === "reachGoal") hit(a[0], "&page-ref=" + encodeURIComponent(location.href) + "&page-url=goal%3A%2F%2F" +
      encodeURIComponent(location.hostname + "/" + a[2]));
  }
  var q = ym.a || [], l = ym.l;
  window.ym = function () { run(arguments); }; window.ym.__fixture = true; window.ym.l = l;
  for (var i = 0; i < q.length; i++) run(q[i]);
})();
