/* Fixture emulation of OneTrust's otSDKStub.js: draws OneTrust's banner DOM
   (ids and classes as the real one), stores consent in the OptanonConsent and
   OptanonAlertBoxClosed cookies and calls window.OptanonWrapper(). */
(function () {
  if (window.OneTrust) return;
  var consented = /(?:^|; )OptanonAlertBoxClosed=/.test(document.cookie);
  window.OnetrustActiveGroups = consented ? ",C0001,C0002,C0004," : ",C0001,";
  function close(groups) {
    var exp = "; path=/; max-age=31536000";
    document.cookie = "OptanonAlertBoxClosed=" + new Date().toISOString() + exp;
    document.cookie = "OptanonConsent=isGpcEnabled=0&groups=" + encodeURIComponent(groups) + exp;
    window.OnetrustActiveGroups = "," + groups.split(",").filter(function (g) { return /:1$/.test(g); }).map(function (g) { return g.split(":")[0]; }).join(",") + ",";
    var sdk = document.getElementById("onetrust-banner-sdk"); if (sdk) sdk.style.display = "none";
    var f = document.querySelector(".onetrust-pc-dark-filter"); if (f) f.style.display = "none";
    if (typeof window.OptanonWrapper === "function") window.OptanonWrapper();
  }
  window.OneTrust = { AllowAll: function () { close("C0001:1,C0002:1,C0004:1"); }, RejectAll: function () { close("C0001:1,C0002:0,C0004:0"); } };
  window.Optanon = window.OneTrust;
  function draw() {
    if (typeof window.OptanonWrapper === "function") window.OptanonWrapper();
    if (consented) return;
    var root = document.createElement("div"); root.id = "onetrust-consent-sdk";
    root.innerHTML = '<div class="onetrust-pc-dark-filter ot-fade-in"></div>' +
      '<div id="onetrust-banner-sdk" class="otFlat" role="region" aria-label="Cookie banner" style="position:fixed;bottom:0;left:0;right:0;background:#fff;padding:16px;border-top:1px solid #ccc;z-index:2147483645">' +
      '<div id="onetrust-policy"><div id="onetrust-policy-text">We use cookies to improve your experience. <a href="/cookie-policy">Cookie Policy</a></div></div>' +
      '<div id="onetrust-button-group-parent"><div id="onetrust-button-group">' +
      '<button id="onetrust-pc-btn-handler">Cookie Settings</button>' +
      '<button id="onetrust-reject-all-handler">Reject All</button>' +
      '<button id="onetrust-accept-btn-handler">Accept All Cookies</button></div></div></div>';
    document.body.appendChild(root);
    document.getElementById("onetrust-accept-btn-handler").addEventListener("click", window.OneTrust.AllowAll);
    document.getElementById("onetrust-reject-all-handler").addEventListener("click", window.OneTrust.RejectAll);
  }
  if (document.body) draw(); else document.addEventListener("DOMContentLoaded", draw);
})();
