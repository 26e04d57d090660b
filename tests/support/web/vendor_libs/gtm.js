/* Fixture emulation of a Google Tag Manager container: announces gtm.js and
   gtm.load on the dataLayer, like the real container does. */
(function () {
  var dl = window.dataLayer = window.dataLayer || [];
  dl.push({ event: "gtm.dom" });
  window.addEventListener("load", function () { dl.push({ event: "gtm.load" }); });
})();
