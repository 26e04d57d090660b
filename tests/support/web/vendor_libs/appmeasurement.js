/* Fixture emulation of Adobe's AppMeasurement.js: s_gi(rsid) returns s;
   s.t() (page view) and s.tl() (link, pe=lnk_o) send image requests to
   https://<trackingServerSecure>/b/ss/<rsid>/1/JS-2.25.0/s<random>. */
function s_gi(rsid) {
  var s = { account: rsid };
  function send(extra) {
    var host = s.trackingServerSecure || s.trackingServer || rsid + ".sc.omtrdc.net";
    new Image().src = "https://" + host + "/b/ss/" + rsid + "/1/JS-2.25.0/s" + Math.floor(Math.random() * 1e13) +
      "?AQB=1&ndh=1&pf=1&t=" + encodeURIComponent(new Date().toString()) + "&ce=UTF-8&pageName=" +
      encodeURIComponent(s.pageName || document.title) + "&g=" + encodeURIComponent(location.href) + "&r=" +
      encodeURIComponent(document.referrer) + "&ch=" + encodeURIComponent(s.channel || "") + "&s=" + screen.width + "x" +
      screen.height + "&c=24&j=1.6&v=N&k=Y" + (extra || "") + "&AQE=1";
  }
  s.t = function () { send(""); };
  s.tl = function (el, type, name) { send("&pe=lnk_" + (type || "o") + "&pev2=" + encodeURIComponent(name || "")); };
  return s;
}
