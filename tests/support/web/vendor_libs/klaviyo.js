/* Fixture emulation of Klaviyo's onsite klaviyo.js?company_id=<key>: sends
   "Active on Site" (and queued klaviyo.push(['track', ...]) events) as JSON:API
   documents to a.klaviyo.com/client/events/?company_id=<key>. */
(function () {
  if (window.__klaviyoFixture) return; window.__klaviyoFixture = true;
  var src = (document.currentScript && document.currentScript.src) || "";
  var id = (/[?&]company_id=([A-Za-z0-9]+)/.exec(src) || /\/onsite\/js\/([A-Za-z0-9]{6})\//.exec(src) || [])[1];
  if (!id) return;
  var anon = Math.random().toString(16).slice(2);
  function track(name, props) {
    fetch("https://a.klaviyo.com/client/events/?company_id=" + id, { method: "POST",
      headers: { "Content-Type": "application/json", revision: "2024-10-15" },
      body: JSON.stringify({ data: { type: "event", attributes: { properties: props || {},
        metric: { data: { type: "metric", attributes: { name: name } } },
        profile: { data: { type: "profile", attributes: { anonymous_id: anon } } } } } }) });
  }
  track("Active on Site", { page: location.href });
  var q = window._klOnsite = window._klOnsite || [];
  function run(c) { if (c && c[0] === "track") track(c[1], c[2]); }
  q.forEach(run);
  q.push = function () { for (var i = 0; i < arguments.length; i++) run(arguments[i]); return 0; };
})();
