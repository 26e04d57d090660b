/* Fixture emulation of Outbrain's obtp.js: obApi('track', name) sends
   tr.outbrain.com/unifiedPixel?marketerId=<id[,id...]>&name=<name>. */
(function () {
  var api = window.obApi; if (!api || api.dispatch) return;
  var ids = [].concat(api.marketerId).join(",");
  api.dispatch = function (cmd, name) {
    if (cmd !== "track") return;
    new Image().src = "https://tr.outbrain.com/unifiedPixel?optOut=false&fbTest=false&bust=" + Math.random().toString().slice(2) +
      "&obApiVersion=" + api.version + "&obtpVersion=1.5.48&marketerId=" + ids + "&name=" + encodeURIComponent(name) +
      "&dl=" + encodeURIComponent(location.href);
  };
  var q = api.queue || []; api.queue = [];
  q.forEach(function (a) { api.dispatch.apply(api, a); });
})();
