/* Fixture emulation of Segment's analytics.js (analytics-next): fetches the
   source settings, then replays the snippet's queue; page/track/identify
   calls POST a JSON body (sent as text/plain, like the real one) with the
   writeKey to api.segment.io/v1/<p|t|i>. */
(function () {
  var a = window.analytics; if (!a || a.initialized) return;
  var src = (document.currentScript && document.currentScript.src) || "";
  var key = a._writeKey || (/\/v1\/([^\/]+)\//.exec(src) || [])[1];
  fetch("https://cdn.segment.com/v1/projects/" + key + "/settings").catch(function () {});
  var anon = "anon-" + Math.random().toString(16).slice(2);
  function send(type, body) {
    body.type = type; body.writeKey = key; body.anonymousId = anon; body.timestamp = new Date().toISOString();
    body.messageId = "ajs-next-" + Math.random().toString(16).slice(2);
    body.context = { page: { url: location.href, path: location.pathname, title: document.title, referrer: document.referrer },
      library: { name: "analytics.js", version: "next-1.70.0" } };
    fetch("https://api.segment.io/v1/" + type[0], { method: "POST", keepalive: true,
      headers: { "Content-Type": "text/plain" }, body: JSON.stringify(body) });
  }
  function args(list) { return list.filter(function (x) { return !(x && x.__t === "bpc"); }); }
  var api = {
    page: function () { var l = args([].slice.call(arguments)); send("page", { name: typeof l[0] === "string" ? l[0] : undefined, properties: {} }); },
    track: function () { var l = args([].slice.call(arguments)); send("track", { event: l[0], properties: l[1] || {} }); },
    identify: function () { var l = args([].slice.call(arguments)); send("identify", { userId: l[0], traits: l[1] || {} }); }
  };
  var q = a.slice ? a.slice() : [];
  window.analytics = { initialized: true, page: api.page, track: api.track, identify: api.identify };
  q.forEach(function (c) { if (api[c[0]]) api[c[0]].apply(null, c.slice(1)); });
})();
