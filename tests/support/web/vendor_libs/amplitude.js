/* Fixture emulation of Amplitude's unified script (cdn.amplitude.com/script/
   <api key>.js): window.amplitude.init(key) POSTs a JSON batch
   {api_key, events: [{event_type, ...}]} to api2.amplitude.com/2/httpapi. */
(function () {
  if (window.amplitude && window.amplitude.__fixture) return;
  var key = null, device = "dev-" + Math.random().toString(16).slice(2), session = Date.now();
  function ev(type, props) {
    return { device_id: device, session_id: session, time: Date.now(), platform: "Web", language: "en-US", ip: "$remote",
      insert_id: Math.random().toString(16).slice(2), event_type: type, event_properties: props || {},
      library: "amplitude-ts/2.11.0", user_agent: navigator.userAgent };
  }
  function send(events) {
    fetch("https://api2.amplitude.com/2/httpapi", { method: "POST", headers: { "Content-Type": "application/json", Accept: "*/*" },
      body: JSON.stringify({ api_key: key, events: events, options: {} }) });
  }
  window.amplitude = {
    __fixture: true, add: function () {},
    init: function (k) {
      key = k;
      send([ev("session_start"), ev("[Amplitude] Page Viewed", { "[Amplitude] Page URL": location.href })]);
      return { promise: Promise.resolve() };
    },
    track: function (type, props) { send([ev(type, props)]); }
  };
  window.sessionReplay = { plugin: function () { return { name: "session-replay" }; } };
})();
