/* Fixture emulation of Mixpanel's mixpanel-2-latest.min.js: for each
   mixpanel.init(token, {track_pageview: true}) and queued track() call,
   POSTs data=<base64 JSON [{event, properties: {token, ...}}]> (form body)
   to api-js.mixpanel.com/track/. */
(function () {
  var mp = window.mixpanel; if (!mp || mp.__loaded) return;
  var token = null, device = "dev-" + Math.random().toString(16).slice(2);
  function send(ev, props) {
    var p = { token: token, distinct_id: "$device:" + device, $device_id: device, $current_url: location.href, mp_lib: "web",
      $lib_version: "2.55.1", time: Date.now() / 1000, $insert_id: Math.random().toString(16).slice(2) };
    for (var k in (props || {})) p[k] = props[k];
    var data = btoa(unescape(encodeURIComponent(JSON.stringify([{ event: ev, properties: p }]))));
    var x = new XMLHttpRequest();
    x.open("POST", "https://api-js.mixpanel.com/track/?verbose=1&ip=1&_=" + Date.now());
    x.setRequestHeader("Content-Type", "application/x-www-form-urlencoded");
    x.send("data=" + encodeURIComponent(data));
  }
  var queued = mp.slice ? mp.slice() : [];
  (mp._i || []).forEach(function (i) {
    token = i[0];
    if (i[1] && i[1].track_pageview) send("$mp_web_page_view", { current_page_title: document.title });
  });
  window.mixpanel = { __loaded: true, track: send };
  queued.forEach(function (c) { if (c[0] === "track") send(c[1], c[2]); });
})();
