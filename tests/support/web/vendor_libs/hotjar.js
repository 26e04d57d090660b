/* Fixture emulation of static.hotjar.com/c/hotjar-<id>.js: with the
   snippet's window._hjSettings it posts visit data to
   in.hotjar.com/api/v2/client/sites/<id>/visit-data; loaded bare, it does
   nothing. */
(function () {
  var s = window._hjSettings; if (!s || !s.hjid || window.__hotjarFixture) return; window.__hotjarFixture = true;
  var x = new XMLHttpRequest();
  x.open("POST", "https://in.hotjar.com/api/v2/client/sites/" + s.hjid + "/visit-data?sv=" + s.hjsv);
  x.setRequestHeader("Content-Type", "text/plain; charset=UTF-8");
  x.send(JSON.stringify({ window_width: innerWidth, window_height: innerHeight, url: location.href,
    user_id: Math.random().toString(16).slice(2), is_vpv: false, session_only: false, rec_value: 1 }));
})();
