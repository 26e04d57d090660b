/* Fixture emulation of js.hs-scripts.com/<hub id>.js: the loader adds the
   analytics script js.hs-analytics.net/analytics/<5-minute bucket>/<hub id>.js. */
(function () {
  var m = /\/([0-9]+)\.js/.exec((document.currentScript && document.currentScript.src) || "");
  if (!m || document.getElementById("hs-analytics")) return;
  var s = document.createElement("script"); s.id = "hs-analytics"; s.async = true;
  s.src = "https://js.hs-analytics.net/analytics/" + Math.ceil(Date.now() / 300000) * 300000 + "/" + m[1] + ".js";
  document.head.appendChild(s);
})();
