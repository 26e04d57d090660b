/* Fixture: a site's own consent code, shared by the custom-banner pages
   (served at /__consent/site.js on every host).
   siteConsent.wire(root, banner): buttons with data-consent="accept" store
   consent (cookie site_consent + localStorage), remove the banner and load the
   Meta pixel named by <meta name="fixture-pixel">; "reject" removes the banner
   and stores the refusal; anything else does nothing. */
(function () {
  function metaPixel(id) {
    !function (f, b, e, v, n, t, s) {
      if (f.fbq) return; n = f.fbq = function () { n.callMethod ? n.callMethod.apply(n, arguments) : n.queue.push(arguments); };
      if (!f._fbq) f._fbq = n; n.push = n; n.loaded = !0; n.version = "2.0"; n.queue = [];
      t = b.createElement(e); t.async = !0; t.src = v; s = b.getElementsByTagName(e)[0]; s.parentNode.insertBefore(t, s);
    }(window, document, "script", "https://connect.facebook.net/en_US/fbevents.js");
    fbq("init", id);
    fbq("track", "PageView");
  }
  function grant(banner) {
    document.cookie = "site_consent=granted; path=/; max-age=31536000";
    try { localStorage.setItem("site-consent", "granted"); } catch (e) {}
    if (banner && banner.parentNode) banner.parentNode.removeChild(banner);
    var meta = document.querySelector('meta[name="fixture-pixel"]');
    if (meta) metaPixel(meta.content);
  }
  function deny(banner) {
    document.cookie = "site_consent=denied; path=/; max-age=31536000";
    if (banner && banner.parentNode) banner.parentNode.removeChild(banner);
  }
  function wire(root, banner) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-consent]"), function (button) {
      button.addEventListener("click", function (event) {
        event.preventDefault();
        var choice = button.getAttribute("data-consent");
        if (choice === "accept") grant(banner);
        else if (choice === "reject") deny(banner);
      });
    });
  }
  window.siteConsent = { wire: wire, grant: grant, deny: deny, metaPixel: metaPixel };
})();
