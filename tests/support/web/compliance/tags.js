/* The tags of the consent-compliance fixture pages (served at /__compliance/tags.js).
   Each installs a vendor with its own published snippet:
   - ccTags.before(): Meta Pixel base code, fired at load, before any choice (sets _fbp);
   - ccTags.accepted(): TikTok Pixel base code, fired by the CMP only for consent to marketing;
   - ccTags.anyChoice(): the Google tag (gtag.js, GA4), fired by the page on ANY choice:
     the tag that ignores a refusal (sets _ga);
   - ccTags.tcfPixel(tcString): Meta's <noscript> image pixel with the TCF macros filled in;
   - ccTags.gppPixel(gppString, sid): the same image pixel with the GPP macros (gpp, gpp_sid) filled in.
   Ids: ccTags.IDS. */
(function () {
  var IDS = { before: "111111111111111", accepted: "CACCEPT0000000000001", anyChoice: "G-IGNORE01",
              tcf: "222222222222222", gpp: "333333333333333" };
  var fired = {};
  function once(name, fn) { if (!fired[name]) { fired[name] = true; fn(); } }
  function meta(id) {
    !function (f, b, e, v, n, t, s) {
      if (f.fbq) return; n = f.fbq = function () { n.callMethod ? n.callMethod.apply(n, arguments) : n.queue.push(arguments); };
      if (!f._fbq) f._fbq = n; n.push = n; n.loaded = !0; n.version = "2.0"; n.queue = [];
      t = b.createElement(e); t.async = !0; t.src = v; s = b.getElementsByTagName(e)[0]; s.parentNode.insertBefore(t, s);
    }(window, document, "script", "https://connect.facebook.net/en_US/fbevents.js");
    fbq("init", id);
    fbq("track", "PageView");
  }
  function tiktok(code) {
    !function (w, d, t) {
      w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie","holdConsent","revokeConsent","grantConsent"],ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(
      var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e},ttq.load=function(e,n){var r="https://analytics.tiktok.com/i18n/pixel/events.js",o=n&&n.partner;ttq._i=ttq._i||{},ttq._i[e]=[],ttq._i[e]._u=r,ttq._t=ttq._t||{},ttq._t[e]=+new Date,ttq._o=ttq._o||{},ttq._o[e]=n||{};n=document.createElement("script")
      ;n.type="text/javascript",n.async=!0,n.src=r+"?sdkid="+e+"&lib="+t;e=document.getElementsByTagName("script")[0];e.parentNode.insertBefore(n,e)};
      ttq.load(code);
      ttq.page();
    }(window, document, "ttq");
  }
  function gtagJs(id) {
    var s = document.createElement("script"); s.async = true;
    s.src = "https://www.googletagmanager.com/gtag/js?id=" + id; document.head.appendChild(s);
    window.dataLayer = window.dataLayer || [];
    function gtag() { dataLayer.push(arguments); }
    gtag("js", new Date());
    gtag("config", id);
  }
  window.ccTags = {
    IDS: IDS,
    before: function () { once("before", function () { meta(IDS.before); }); },
    accepted: function () { once("accepted", function () { tiktok(IDS.accepted); }); },
    anyChoice: function () { once("anyChoice", function () { gtagJs(IDS.anyChoice); }); },
    tcfPixel: function (tc) {
      once("tcf", function () {
        new Image().src = "https://www.facebook.com/tr?id=" + IDS.tcf + "&ev=PageView&noscript=1&gdpr=1&gdpr_consent=" +
          encodeURIComponent(tc);
      });
    },
    gppPixel: function (gpp, sid) {
      once("gpp", function () {
        new Image().src = "https://www.facebook.com/tr?id=" + IDS.gpp + "&ev=PageView&noscript=1&gpp=" +
          encodeURIComponent(gpp) + "&gpp_sid=" + encodeURIComponent(sid);
      });
    }
  };
})();
