/* Fixture emulation of LinkedIn's insight.min.js: one px.ads.linkedin.com
   /collect ping per partner id on load, and lintrk('track', {conversion_id})
   conversions. */
(function () {
  if (window.__linkedinFixture) return; window.__linkedinFixture = true;
  var ids = (window._linkedin_data_partner_ids || []).slice();
  if (window._linkedin_partner_id && ids.indexOf(window._linkedin_partner_id) < 0) ids.push(window._linkedin_partner_id);
  function ping(extra) {
    ids.forEach(function (pid) {
      new Image().src = "https://px.ads.linkedin.com/collect?v=2&fmt=js&pid=" + pid + "&time=" + Date.now() +
        "&url=" + encodeURIComponent(location.href) + (extra || "");
    });
  }
  ping("");
  var q = (window.lintrk && window.lintrk.q) || [];
  window.lintrk = function (cmd, data) {
    if (cmd === "track" && data && data.conversion_id) ping("&conversionId=" + encodeURIComponent(data.conversion_id));
  };
  q.forEach(function (c) { window.lintrk(c[0], c[1]); });
})();
