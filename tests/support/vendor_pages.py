"""Fixture pages for the vendor browser tests (``tests/browser/test_vendor_pages.py``),
rendered by ``tests/support/web/snippet_pages.py``.

- ``SNIPPETS``: one page per vendor at ``https://snippets.example/<key>``
  installing the tag with the vendor's own published snippet; the fixture web
  serves an emulated library (``tests/support/web/vendor_libs/``) that sends hits in
  the real library's shape.
- ``BEACONS`` x ``TRANSPORTS``: ``https://snippets.example/transport/<name>``
  sends one hit per major vendor over one transport (image, fetch, XHR,
  sendBeacon, JSON POST, iframe, delayed).
- ``LOOKALIKES``: ``https://snippets.example/lookalikes``, requests that look
  like pixels but must not be reported.
- ``FIRST_PARTY``: ``https://myshop.example/<name>``, tags collected on the
  site's own hosts (server-side GTM, Adobe CNAME, self-hosted Matomo).
- ``SCRIPT_IDS``: ``https://snippets.example/script-ids``, tag libraries loaded
  bare (no call that would fire a hit): their URLs carry the account ids.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote

SNIPPETS_HOST = "snippets.example"
FIRST_PARTY_HOST = "myshop.example"


@dataclass(frozen=True)
class Snippet:
    """A vendor's install snippet.

    Attributes:
        vendor: catalog key.
        account: account id the crawl must report (normalised form).
        html: the snippet, with ``{ID}`` where the account id goes.
        event: event name of the beacon hit the library sends (None: the
            library sends no event name, e.g. a page view ping).
        transport: CDP resource type of that beacon ("script": the only hit
            is the library load).
        raw_id: the id as written in the snippet, when it differs from
            ``account`` (Google Ads conversion ids are reported ``AW-<n>``).
    """

    vendor: str
    account: str
    html: str
    event: str | None
    transport: str
    raw_id: str | None = None

    @property
    def url(self) -> str:
        return f"https://{SNIPPETS_HOST}/{self.vendor}"

    def render(self) -> str:
        return self.html.replace("{ID}", self.raw_id or self.account)


_GTAG = """<!-- Google tag (gtag.js) -->
<script async src="https://www.googletagmanager.com/gtag/js?id={ID}"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', '{ID}');
</script>
"""

SNIPPETS: tuple[Snippet, ...] = (
    Snippet("facebook", "987654321098765", """<!-- Meta Pixel Code -->
<script>
!function(f,b,e,v,n,t,s)
{if(f.fbq)return;n=f.fbq=function(){n.callMethod?
n.callMethod.apply(n,arguments):n.queue.push(arguments)};
if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';
n.queue=[];t=b.createElement(e);t.async=!0;
t.src=v;s=b.getElementsByTagName(e)[0];
s.parentNode.insertBefore(t,s)}(window, document,'script',
'https://connect.facebook.net/en_US/fbevents.js');
fbq('init', '{ID}');
fbq('track', 'PageView');
</script>
<noscript><img height="1" width="1" style="display:none"
src="https://www.facebook.com/tr?id={ID}&ev=PageView&noscript=1"
/></noscript>
<!-- End Meta Pixel Code -->
""", "PageView", "image"),
    Snippet("google_analytics", "G-SNIPPET01", _GTAG, "page_view", "ping"),
    Snippet("universal_analytics", "UA-87654321-1", """<!-- Google Analytics -->
<script>
(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r;i[r]=i[r]||function(){
(i[r].q=i[r].q||[]).push(arguments)},i[r].l=1*new Date();a=s.createElement(o),
m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)
})(window,document,'script','https://www.google-analytics.com/analytics.js','ga');

ga('create', '{ID}', 'auto');
ga('send', 'pageview');
</script>
<!-- End Google Analytics -->
""", "pageview", "image"),
    Snippet("google_tag_manager", "GTM-SNIP123", """<!-- Google Tag Manager -->
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','{ID}');</script>
<!-- End Google Tag Manager -->
<!-- Google Tag Manager (noscript) -->
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id={ID}"
height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>
<!-- End Google Tag Manager (noscript) -->
""", None, "script"),
    Snippet("google_ads", "AW-987654321", _GTAG + """<!-- Event snippet for Purchase conversion page -->
<script>
  gtag('event', 'conversion', {
      'send_to': '{ID}/AbCdEfGhIjK',
      'value': 1.0,
      'currency': 'EUR',
      'transaction_id': ''
  });
</script>
""", "AbCdEfGhIjK", "image"),
    Snippet("floodlight", "DC-8765432", """<!-- Global site tag (gtag.js) - Google Marketing Platform -->
<script async src="https://www.googletagmanager.com/gtag/js?id={ID}"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', '{ID}');
</script>
<!-- End of global snippet: Please do not remove -->
<!--
Event snippet for Landing page on https://snippets.example/floodlight: Please do not remove.
Place this snippet on pages with events you're tracking.
Creation date: 01/15/2024
-->
<script>
  gtag('event', 'conversion', {
    'allow_custom_scripts': true,
    'send_to': '{ID}/invmedia/landi0+standard'
  });
</script>
<noscript>
<img src="https://ad.doubleclick.net/ddm/activity/src=8765432;type=invmedia;cat=landi0;dc_lat=;dc_rdid=;tag_for_child_directed_treatment=;tfua=;npa=;gdpr=${GDPR};gdpr_consent=${GDPR_CONSENT_755};ord=1?" width="1" height="1" alt=""/>
</noscript>
<!-- End of event snippet: Please do not remove -->
""", "landi0", "document"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("tiktok", "CSNIPPET000000000001", """<!-- TikTok Pixel Code Start -->
<script>
!function (w, d, t) {
  w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie","holdConsent","revokeConsent","grantConsent"],ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(
var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e},ttq.load=function(e,n){var r="https://analytics.tiktok.com/i18n/pixel/events.js",o=n&&n.partner;ttq._i=ttq._i||{},ttq._i[e]=[],ttq._i[e]._u=r,ttq._t=ttq._t||{},ttq._t[e]=+new Date,ttq._o=ttq._o||{},ttq._o[e]=n||{};n=document.createElement("script")
;n.type="text/javascript",n.async=!0,n.src=r+"?sdkid="+e+"&lib="+t;e=document.getElementsByTagName("script")[0];e.parentNode.insertBefore(n,e)};

  ttq.load('{ID}');
  ttq.page();
}(window, document, 'ttq');
</script>
<!-- TikTok Pixel Code End -->
""", "Pageview", "fetch"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("linkedin", "7654321", """<script type="text/javascript">
_linkedin_partner_id = "{ID}";
window._linkedin_data_partner_ids = window._linkedin_data_partner_ids || [];
window._linkedin_data_partner_ids.push(_linkedin_partner_id);
</script><script type="text/javascript">
(function(l) {
if (!l){window.lintrk = function(a,b){window.lintrk.q.push([a,b])};
window.lintrk.q=[]}
var s = document.getElementsByTagName("script")[0];
var b = document.createElement("script");
b.type = "text/javascript";b.async = true;
b.src = "https://snap.licdn.com/li.lms-analytics/insight.min.js";
s.parentNode.insertBefore(b, s);})(window.lintrk);
</script>
<noscript>
<img height="1" width="1" style="display:none;" alt="" src="https://px.ads.linkedin.com/collect/?pid={ID}&fmt=gif" />
</noscript>
""", "pageview", "image"),
    Snippet("twitter", "o8x9y", """<!-- X conversion tracking base code -->
<script>
!function(e,t,n,s,u,a){e.twq||(s=e.twq=function(){s.exe?s.exe.apply(s,arguments):s.queue.push(arguments);
},s.version='1.1',s.queue=[],u=t.createElement(n),u.async=!0,u.src='https://static.ads-twitter.com/uwt.js',
a=t.getElementsByTagName(n)[0],a.parentNode.insertBefore(u,a))}(window,document,'script');
twq('config','{ID}');
</script>
<!-- End X conversion tracking base code -->
""", "pageview", "image"),
    Snippet("bing", "87654321", """<script>
(function(w,d,t,r,u){var f,n,i;w[u]=w[u]||[],f=function(){var o={ti:"{ID}", enableAutoSpaTracking: true};o.q=w[u],w[u]=new UET(o),w[u].push("pageLoad")},n=d.createElement(t),n.src=r,n.async=1,n.onload=n.onreadystatechange=function(){var s=this.readyState;s&&s!=="loaded"&&s!=="complete"||(f(),n.onload=n.onreadystatechange=null)},i=d.getElementsByTagName(t)[0],i.parentNode.insertBefore(n,i)})(window,document,"script","//bat.bing.com/bat.js","uetq");
</script>
""", "pageLoad", "image"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("pinterest", "2619876543210", """<!-- Pinterest Tag -->
<script>
!function(e){if(!window.pintrk){window.pintrk = function () {
window.pintrk.queue.push(Array.prototype.slice.call(arguments))};var
  n=window.pintrk;n.queue=[],n.version="3.0";var
  t=document.createElement("script");t.async=!0,t.src=e;var
  r=document.getElementsByTagName("script")[0];
  r.parentNode.insertBefore(t,r)}}("https://s.pinimg.com/ct/core.js");
pintrk('load', '{ID}', {em: '<user_email_address>'});
pintrk('page');
</script>
<noscript>
<img height="1" width="1" style="display:none;" alt=""
  src="https://ct.pinterest.com/v3/?event=init&tid={ID}&pd[em]=<hashed_email_address>&noscript=1" />
</noscript>
<!-- end Pinterest Tag -->
""", "pagevisit", "image"),
    Snippet("snapchat", "5e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b", """<!-- Snap Pixel Code -->
<script type='text/javascript'>
(function(e,t,n){if(e.snaptr)return;var a=e.snaptr=function()
{a.handleRequest?a.handleRequest.apply(a,arguments):a.queue.push(arguments)};
a.queue=[];var s='script';r=t.createElement(s);r.async=!0;
r.src=n;var u=t.getElementsByTagName(s)[0];
u.parentNode.insertBefore(r,u);})(window,document,
'https://sc-static.net/scevent.min.js');

snaptr('init', '{ID}', {
'user_email': '__INSERT_USER_EMAIL__'
});

snaptr('track', 'PAGE_VIEW');

</script>
<!-- End Snap Pixel Code -->
""", "PAGE_VIEW", "fetch"),
    Snippet("reddit", "t2_snip123", """<!-- Reddit Pixel -->
<script>
!function(w,d){if(!w.rdt){var p=w.rdt=function(){p.sendEvent?p.sendEvent.apply(p,arguments):p.callQueue.push(arguments)};p.callQueue=[];var t=d.createElement("script");t.src="https://www.redditstatic.com/ads/pixel.js",t.async=!0;var s=d.getElementsByTagName("script")[0];s.parentNode.insertBefore(t,s)}}(window,document);rdt('init','{ID}');rdt('track', 'PageVisit');
</script>
<!-- DO NOT MODIFY UNLESS TO REPLACE A USER IDENTIFIER -->
<!-- End Reddit Pixel -->
""", "PageVisit", "image"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("hotjar", "3456789", """<!-- Hotjar Tracking Code for snippets.example -->
<script>
    (function(h,o,t,j,a,r){
        h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};
        h._hjSettings={hjid:{ID},hjsv:6};
        a=o.getElementsByTagName('head')[0];
        r=o.createElement('script');r.async=1;
        r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;
        a.appendChild(r);
    })(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');
</script>
""", None, "xhr"),
    Snippet("microsoft_clarity", "snipclar01", """<script type="text/javascript">
    (function(c,l,a,r,i,t,y){
        c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};
        t=l.createElement(r);t.async=1;t.src="https://www.clarity.ms/tag/"+i;
        y=l.getElementsByTagName(r)[0];y.parentNode.insertBefore(t,y);
    })(window, document, "clarity", "script", "{ID}");
</script>
""", None, "script"),
    Snippet("segment", "SnIpPeTwRiTeKeY0123456789abcdef", """<script>
  !function(){var i="analytics",analytics=window[i]=window[i]||[];if(!analytics.initialize)if(analytics.invoked)window.console&&console.error&&console.error("Segment snippet included twice.");else{analytics.invoked=!0;analytics.methods=["trackSubmit","trackClick","trackLink","trackForm","pageview","identify","reset","group","track","ready","alias","debug","page","screen","once","off","on","addSourceMiddleware","addIntegrationMiddleware","setAnonymousId","addDestinationMiddleware","register"];analytics.factory=function(e){return function(){if(window[i].initialized)return window[i][e].apply(window[i],arguments);var n=Array.prototype.slice.call(arguments);if(["track","screen","alias","group","page","identify"].indexOf(e)>-1){var c=document.querySelector("link[rel='canonical']");n.push({__t:"bpc",c:c&&c.getAttribute("href")||void 0,p:location.pathname,u:location.href,s:location.search,t:document.title,r:document.referrer})}n.unshift(e);analytics.push(n);return analytics}};for(var n=0;n<analytics.methods.length;n++){var key=analytics.methods[n];analytics[key]=analytics.factory(key)}analytics.load=function(key,n){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.setAttribute("data-global-segment-analytics-key",i);t.src="https://cdn.segment.com/analytics.js/v1/" + key + "/analytics.min.js";var r=document.getElementsByTagName("script")[0];r.parentNode.insertBefore(t,r);analytics._loadOptions=n};analytics._writeKey="{ID}";;analytics.SNIPPET_VERSION="5.2.0";
  analytics.load("{ID}");
  analytics.page();
  }}();
</script>
""", "page", "fetch"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("amplitude", "a1b2c3d4e5f60718293a4b5c6d7e8f90", """<script src="https://cdn.amplitude.com/script/{ID}.js"></script>
<script>window.amplitude.add(window.sessionReplay.plugin({sampleRate: 1}));window.amplitude.init('{ID}', {"fetchRemoteConfig":true,"autocapture":true});</script>
""", "[Amplitude] Page Viewed", "fetch"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("mixpanel", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", """<!-- start Mixpanel --><script type="text/javascript">
(function (f, b) { if (!b.__SV) { var e, g, i, h; window.mixpanel = b; b._i = []; b.init = function (e, f, c) { function g(a, d) { var b = d.split("."); 2 == b.length && ((a = a[b[0]]), (d = b[1])); a[d] = function () { a.push([d].concat(Array.prototype.slice.call(arguments, 0))); }; } var a = b; "undefined" !== typeof c ? (a = b[c] = []) : (c = "mixpanel"); a.people = a.people || []; a.toString = function (a) { var d = "mixpanel"; "mixpanel" !== c && (d += "." + c); a || (d += " (stub)"); return d; }; a.people.toString = function () { return a.toString(1) + ".people (stub)"; }; i = "disable time_event track track_pageview track_links track_forms track_with_groups add_group set_group remove_group register register_once alias unregister identify name_tag set_config reset opt_in_tracking opt_out_tracking has_opted_in_tracking has_opted_out_tracking clear_opt_in_out_tracking start_batch_senders people.set people.set_once people.unset people.increment people.append people.union people.track_charge people.clear_charges people.delete_user people.remove".split( " "); for (h = 0; h < i.length; h++) g(a, i[h]); var j = "set set_once union unset remove delete".split(" "); a.get_group = function () { function b(c) { d[c] = function () { call2_args = arguments; call2 = [c].concat(Array.prototype.slice.call(call2_args, 0)); a.push([e, call2]); }; } for ( var d = {}, e = ["get_group"].concat( Array.prototype.slice.call(arguments, 0)), c = 0; c < j.length; c++) b(j[c]); return d; }; b._i.push([e, f, c]); }; b.__SV = 1.2; e = f.createElement("script"); e.type = "text/javascript"; e.async = !0; e.src = "undefined" !== typeof MIXPANEL_CUSTOM_LIB_URL ? MIXPANEL_CUSTOM_LIB_URL : "file:" === f.location.protocol && "//cdn.mxpnl.com/libs/mixpanel-2-latest.min.js".match(/^\\/\\//) ? "https://cdn.mxpnl.com/libs/mixpanel-2-latest.min.js" : "//cdn.mxpnl.com/libs/mixpanel-2-latest.min.js"; g = f.getElementsByTagName("script")[0]; g.parentNode.insertBefore(e, g); } })(document, window.mixpanel || []);
mixpanel.init("{ID}", {track_pageview: true});
</script><!-- end Mixpanel -->
""", "$mp_web_page_view", "xhr"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("hubspot", "4567890", """<!-- Start of HubSpot Embed Code -->
<script type="text/javascript" id="hs-script-loader" async defer src="//js.hs-scripts.com/{ID}.js"></script>
<!-- End of HubSpot Embed Code -->
""", None, "image"),
    Snippet("criteo", "54321", """<!-- Criteo Loader File -->
<script type="text/javascript" src="//dynamic.criteo.com/js/ld/ld.js?a={ID}" async="true"></script>
<!-- END Criteo Loader File -->

<!-- Criteo Homepage Tag -->
<script type="text/javascript">
window.criteo_q = window.criteo_q || [];
var deviceType = /iPad/.test(navigator.userAgent) ? "t" : /Mobile|iP(hone|od)|Android|BlackBerry|IEMobile|Silk/.test(navigator.userAgent) ? "m" : "d";
window.criteo_q.push(
 { event: "setAccount", account: {ID}},
 { event: "setEmail", email: "", hash_method: "none" },
 { event: "setSiteType", type: deviceType},
 { event: "viewHome"});
</script>
<!-- END Criteo Home Page Tag -->
""", "vh", "fetch"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("taboola", "1234567", """<!-- Taboola Pixel Code -->
<script type='text/javascript'>
  window._tfa = window._tfa || [];
  window._tfa.push({notify: 'event', name: 'page_view', id: {ID}});
  !function (t, f, a, x) {
         if (!document.getElementById(x)) {
            t.async = 1;t.src = a;t.id=x;f.parentNode.insertBefore(t, f);
         }
  }(document.createElement('script'),
  document.getElementsByTagName('script')[0],
  '//cdn.taboola.com/libtrc/unip/{ID}/tfa.js',
  'tb_tfa_script');
</script>
<!-- End of Taboola Pixel Code -->
""", "page_view", "image"),
    Snippet("outbrain", "00a1b2c3d4e5f60718293a4b5c6d7e8f90", """<script data-obct type = "text/javascript">
  /** DO NOT MODIFY THIS CODE**/
  !function(_window, _document) {
    var OB_ADV_ID = '{ID}';
    if (_window.obApi) {
      var toArray = function(object) {
        return Object.prototype.toString.call(object) === '[object Array]' ? object : [object];
      };
      _window.obApi.marketerId = toArray(_window.obApi.marketerId).concat(toArray(OB_ADV_ID));
      return;
    }
    var api = _window.obApi = function() {
      api.dispatch ? api.dispatch.apply(api, arguments) : api.queue.push(arguments);
    };
    api.version = '1.1';
    api.loaded = true;
    api.marketerId = OB_ADV_ID;
    api.queue = [];
    var tag = _document.createElement('script');
    tag.async = true;
    tag.src = '//amplify.outbrain.com/cp/obtp.js';
    tag.type = 'text/javascript';
    var script = _document.getElementsByTagName('script')[0];
    script.parentNode.insertBefore(tag, script);
  }(window, document);

  obApi('track', 'PAGE_VIEW');
</script>
""", "PAGE_VIEW", "image"),
    Snippet("quora", "fedcba9876543210fedcba9876543210", """<!-- DO NOT MODIFY -->
<!-- Quora Pixel Code (JS Helper) -->
<script>
!function(q,e,v,n,t,s){if(q.qp) return; n=q.qp=function(){n.qp?n.qp.apply(n,arguments):n.queue.push(arguments);}; n.queue=[];t=document.createElement(e);t.async=!0;t.src=v; s=document.getElementsByTagName(e)[0]; s.parentNode.insertBefore(t,s);}(window, 'script', 'https://a.quora.com/qevents.js');
qp('init', '{ID}');
qp('track', 'ViewContent');
</script>
<noscript><img height="1" width="1" style="display:none" src="https://q.quora.com/_/ad/{ID}/pixel?tag=ViewContent&noscript=1"/></noscript>
<!-- End of Quora Pixel Code -->
""", "ViewContent", "image"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("yandex_metrica", "87654321", """<!-- Yandex.Metrika counter -->
<script type="text/javascript" >
   (function(m,e,t,r,i,k,a){m[i]=m[i]||function(){(m[i].a=m[i].a||[]).push(arguments)};
   m[i].l=1*new Date();
   for (var j = 0; j < document.scripts.length; j++) {if (document.scripts[j].src === r) { return; }}
   k=e.createElement(t),a=e.getElementsByTagName(t)[0],k.async=1,k.src=r,a.parentNode.insertBefore(k,a)})
   (window, document, "script", "https://mc.yandex.ru/metrika/tag.js", "ym");

   ym({ID}, "init", {
        clickmap:true,
        trackLinks:true,
        accurateTrackBounce:true
   });
</script>
<noscript><div><img src="https://mc.yandex.ru/watch/{ID}" style="position:absolute; left:-9999px;" alt="" /></div></noscript>
<!-- /Yandex.Metrika counter -->
""", "watch", "fetch"),  # noqa: E501 (the vendor's snippet, verbatim)
    Snippet("klaviyo", "XyZ789", """<script async type="text/javascript" src="https://static.klaviyo.com/onsite/js/klaviyo.js?company_id={ID}"></script>
<script type="text/javascript">
!function(){if(!window.klaviyo){window._klOnsite=window._klOnsite||[];try{window.klaviyo=new Proxy({},{get:function(n,i){return"push"===i?function(){var n;(n=window._klOnsite).push.apply(n,arguments)}:function(){for(var n=arguments.length,o=new Array(n),w=0;w<n;w++)o[w]=arguments[w];var t="function"==typeof o[o.length-1]?o.pop():void 0,e=new Promise((function(n){window._klOnsite.push([i].concat(o,[function(i){t&&t(i),n(i)}]))}));return e}}})}catch(n){window.klaviyo=window.klaviyo||[],window.klaviyo.push=function(){var n;(n=window._klOnsite).push.apply(n,arguments)}}}}();
</script>
""", "Active on Site", "fetch"),  # noqa: E501 (the vendor's snippet, verbatim)
)

SNIPPETS_BY_VENDOR = {s.vendor: s for s in SNIPPETS}


# -- transports ------------------------------------------------------------------

_PAGE = quote(f"https://{SNIPPETS_HOST}/transport", safe="")
FORM = "application/x-www-form-urlencoded"
TEXT = "text/plain"
JSON_TYPE = "application/json"


@dataclass(frozen=True)
class Beacon:
    """One hit of a major vendor in the real library's shape.

    Attributes:
        vendor, account, event: what the crawl must report.
        get: GET URL (query carries id and event), or None when the vendor
            only POSTs.
        post: ``(url, body, content type)`` when the library POSTs a body.
    """

    vendor: str
    account: str
    event: str
    get: str | None = None
    post: tuple[str, str, str] | None = None


BEACONS: tuple[Beacon, ...] = (
    Beacon("facebook", "111100002222333", "PageView",
           get=f"https://www.facebook.com/tr/?id=111100002222333&ev=PageView&dl={_PAGE}&rl=&if=false&ts=1700000000000"
               "&v=2.9.179&r=stable",
           post=("https://www.facebook.com/tr/", f"id=111100002222333&ev=PageView&dl={_PAGE}&if=false", FORM)),
    Beacon("google_analytics", "G-TRANSPORT1", "page_view",
           get=f"https://region1.google-analytics.com/g/collect?v=2&tid=G-TRANSPORT1&gtm=45je&_p=1&cid=1.2&ul=en-us"
               f"&en=page_view&dl={_PAGE}",
           post=("https://region1.google-analytics.com/g/collect?v=2&tid=G-TRANSPORT1&gtm=45je&_p=1&cid=1.2"
                 f"&dl={_PAGE}", "en=page_view&_et=1", TEXT)),
    Beacon("google_ads", "AW-111222333", "page_view",
           get=f"https://googleads.g.doubleclick.net/pagead/viewthroughconversion/111222333/?random=1&cv=11&fst=1"
               f"&en=page_view&url={_PAGE}"),
    Beacon("linkedin", "1112223", "pageview",
           get=f"https://px.ads.linkedin.com/collect?v=2&fmt=js&pid=1112223&time=1700000000000&url={_PAGE}",
           post=("https://px.ads.linkedin.com/wa/",
                 json.dumps({"pids": [1112223], "scriptVersion": 191, "time": 1700000000000, "domain": SNIPPETS_HOST,
                             "url": f"https://{SNIPPETS_HOST}/transport", "isTranslated": False,
                             "liFatId": "", "misc": {"psbState": -1}}), JSON_TYPE)),
    Beacon("pinterest", "2611112223334", "pagevisit",
           get="https://ct.pinterest.com/v3/?event=pagevisit&tid=2611112223334&cb=1700000000000&noscript=0"),
    Beacon("snapchat", "0a1b2c3d-1111-4222-8333-444455556666", "PAGE_VIEW",
           get="https://tr.snapchat.com/p?pid=0a1b2c3d-1111-4222-8333-444455556666&ev=PAGE_VIEW&noscript=1",
           post=("https://tr.snapchat.com/p", f"pid=0a1b2c3d-1111-4222-8333-444455556666&ev=PAGE_VIEW&pl={_PAGE}&v=1.5",
                 FORM)),
    Beacon("bing", "11122233", "pageLoad",
           get=f"https://bat.bing.com/action/0?ti=11122233&tm=al001&Ver=2&mid=0a1b2c3d&evt=pageLoad&p={_PAGE}"
               "&lg=en-US&rn=1"),
    Beacon("tiktok", "CTRANSPORT0000000001", "Pageview",
           post=("https://analytics.tiktok.com/api/v2/pixel",
                 json.dumps({"event": "Pageview", "message_id": "messageId-1", "event_id": "", "is_onsite": False,
                             "timestamp": "2024-01-15T10:00:00.000Z",
                             "context": {"pixel": {"code": "CTRANSPORT0000000001", "runtime": "1"},
                                         "page": {"url": f"https://{SNIPPETS_HOST}/transport", "referrer": ""}},
                             "properties": {}}), JSON_TYPE)),
    Beacon("segment", "TrAnSpOrTwRiTeKeY0123456789", "page",
           post=("https://api.segment.io/v1/p",
                 json.dumps({"type": "page", "writeKey": "TrAnSpOrTwRiTeKeY0123456789", "anonymousId": "anon-1",
                             "properties": {"url": f"https://{SNIPPETS_HOST}/transport"},
                             "messageId": "ajs-next-1", "timestamp": "2024-01-15T10:00:00.000Z"}), JSON_TYPE)),
)

BEACONS_BY_VENDOR = {b.vendor: b for b in BEACONS}

#: transport -> (resource type of a GET hit, of a POST hit) the crawl must record;
#: None: the transport does not carry that kind of request.
TRANSPORTS: dict[str, tuple[str | None, str | None]] = {
    "image": ("image", None),        # new Image().src
    "fetch": ("fetch", None),        # fetch(url)
    "xhr": ("xhr", "xhr"),           # XMLHttpRequest (GET, or POST with the body)
    "beacon": ("ping", "ping"),      # navigator.sendBeacon(url[, body])
    "json": (None, "fetch"),         # fetch POST, Content-Type: application/json
    "iframe": ("document", None),    # <iframe src=url>
    "delayed": ("image", "fetch"),   # setTimeout(..., 1200), then image or fetch POST
}


def request_for(beacon: Beacon, transport: str) -> tuple[str, str, str | None, str | None]:
    """``(method, url, body, content type)`` of ``beacon`` over ``transport``:
    the GET shape where the vendor has one, else its POST body; sendBeacon
    always POSTs (a form/text body when the vendor has one, else the bare
    GET URL); ``json`` POSTs the vendor's JSON body."""
    if transport == "json" or (transport == "beacon" and beacon.post is not None
                               and (beacon.post[2] != JSON_TYPE or beacon.get is None)):
        return ("POST", *beacon.post)
    if beacon.get is not None:
        return ("POST" if transport == "beacon" else "GET", beacon.get, None, None)
    return ("POST", *beacon.post)


def applicable(beacon: Beacon, transport: str) -> bool:
    """Whether the vendor's real request shape can go over ``transport``."""
    if transport == "json":
        return beacon.post is not None and beacon.post[2] == JSON_TYPE
    if beacon.get is not None:
        return True
    return TRANSPORTS[transport][1] is not None  # POST-only vendor: no image / iframe / plain GET fetch


def expected_type(beacon: Beacon, transport: str) -> str:
    """CDP resource type the crawl must record for ``beacon`` over ``transport``."""
    get_type, post_type = TRANSPORTS[transport]
    if transport == "beacon":
        return "ping"
    return get_type if request_for(beacon, transport)[0] == "GET" else post_type


MATRIX: tuple[tuple[str, str], ...] = tuple(
    (b.vendor, t) for t in TRANSPORTS for b in BEACONS if applicable(b, t))


def transport_url(transport: str) -> str:
    return f"https://{SNIPPETS_HOST}/transport/{transport}"


# -- look-alikes ------------------------------------------------------------------------

@dataclass(frozen=True)
class Lookalike:
    """A request shaped like a pixel that must not be reported as ``vendor``;
    or, with ``sent``, a real pixel request whose id is malformed: since
    issue 19 it is reported with the id as ``sent``, flagged (it used to be
    dropped).

    ``send``: "image", "script" (a tag library load) or "fetch" (a POST of
    ``body``).  ``marker`` is unique in the request URL (to find the request
    in the fixture web's log)."""

    name: str
    vendor: str
    send: str
    url: str
    body: str | None = None
    content_type: str | None = None
    sent: str | None = None

    @property
    def marker(self) -> str:
        return f"lookalike={self.name}"


LOOKALIKES_URL = f"https://{SNIPPETS_HOST}/lookalikes"

LOOKALIKES: tuple[Lookalike, ...] = (
    Lookalike("meta_first_party_tr", "facebook", "image",
              f"https://{SNIPPETS_HOST}/tr?id=123456789012345&ev=PageView&lookalike=meta_first_party_tr"),
    Lookalike("meta_malformed_id", "facebook", "image",
              "https://www.facebook.com/tr/?id=12345abc&ev=PageView&lookalike=meta_malformed_id", sent="12345abc"),
    Lookalike("meta_lookalike_host", "facebook", "image",
              "https://www.facebook.com.cdn-tracker.example/tr/?id=123456789012345&ev=PageView"
              "&lookalike=meta_lookalike_host"),
    Lookalike("gtag_not_g_or_aw", "google_analytics", "script",
              "https://www.googletagmanager.com/gtag/js?id=X-ABC123XYZ9&lookalike=gtag_not_g_or_aw"),
    Lookalike("ga4_tid_not_g", "google_analytics", "fetch",
              "https://region1.google-analytics.com/g/collect?v=2&tid=X-ABC123XYZ9&cid=1.2&en=page_view"
              "&lookalike=ga4_tid_not_g"),
    Lookalike("ga4_first_party_no_v2", "google_analytics", "fetch",
              f"https://{SNIPPETS_HOST}/g/collect?tid=G-ABC123XYZ9&cid=1.2&en=page_view"
              "&lookalike=ga4_first_party_no_v2"),
    Lookalike("ads_malformed_id", "google_ads", "image",
              "https://www.googleadservices.com/pagead/conversion/12345/?label=abc&lookalike=ads_malformed_id",
              sent="12345"),
    Lookalike("tiktok_malformed_code", "tiktok", "fetch",
              "https://analytics.tiktok.com/api/v2/pixel?lookalike=tiktok_malformed_code",
              json.dumps({"event": "Pageview", "context": {"pixel": {"code": "not-a-pixel-code"}}}), JSON_TYPE,
              sent="not-a-pixel-code"),
    Lookalike("pinterest_first_party", "pinterest", "image",
              f"https://{SNIPPETS_HOST}/v3/?event=pagevisit&tid=2612345678901&lookalike=pinterest_first_party"),
    Lookalike("linkedin_malformed_pid", "linkedin", "image",
              "https://px.ads.linkedin.com/collect?v=2&fmt=js&pid=li-abc&lookalike=linkedin_malformed_pid",
              sent="li-abc"),
)

#: a valid pixel on the look-alike page: proves the page's requests were captured.
LOOKALIKE_CONTROL = Beacon("reddit", "t2_control1", "PageVisit",
                           get="https://alb.reddit.com/rp.gif?id=t2_control1&event=PageVisit&ts=1700000000000")


# -- first-party setups --------------------------------------------------------------------

@dataclass(frozen=True)
class FirstParty:
    name: str
    vendor: str
    account: str
    event: str | None
    collect_host: str
    collect_path: str
    html: str

    @property
    def url(self) -> str:
        return f"https://{FIRST_PARTY_HOST}/{self.name}"


FIRST_PARTY: tuple[FirstParty, ...] = (
    FirstParty("sgtm", "google_analytics", "G-SGTM12345", "page_view", f"sgtm.{FIRST_PARTY_HOST}", "/g/collect",
               f"""<!-- Google tag (gtag.js), served by the server-side GTM container -->
<script async src="https://sgtm.{FIRST_PARTY_HOST}/gtag/js?id=G-SGTM12345"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){{dataLayer.push(arguments);}}
  gtag('js', new Date());

  gtag('config', 'G-SGTM12345', {{ server_container_url: 'https://sgtm.{FIRST_PARTY_HOST}' }});
</script>
"""),
    FirstParty("adobe", "adobe_analytics", "myshopprod", "pageview", f"metrics.{FIRST_PARTY_HOST}",
               "/b/ss/myshopprod/1/", f"""<script src="/js/AppMeasurement.js"></script>
<script>
  var s = s_gi("myshopprod");
  s.trackingServer = "metrics.{FIRST_PARTY_HOST}";
  s.trackingServerSecure = "metrics.{FIRST_PARTY_HOST}";
  s.pageName = "home";
  s.channel = "shop";
  s.t();
</script>
"""),
    FirstParty("matomo", "matomo", "3", None, FIRST_PARTY_HOST, "/analytics/matomo.php",
               f"""<!-- Matomo -->
<script>
  var _paq = window._paq = window._paq || [];
  /* tracker methods like "setCustomDimension" should be called before "trackPageView" */
  _paq.push(['trackPageView']);
  _paq.push(['enableLinkTracking']);
  (function() {{
    var u="//{FIRST_PARTY_HOST}/analytics/";
    _paq.push(['setTrackerUrl', u+'matomo.php']);
    _paq.push(['setSiteId', '3']);
    var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0];
    g.async=true; g.src=u+'matomo.js'; s.parentNode.insertBefore(g,s);
  }})();
</script>
<!-- End Matomo Code -->
"""),
)

#: first-party libraries, served on the site's own hosts: (host suffix, path) -> vendor_libs file.
FIRST_PARTY_LIBS = {
    (f"sgtm.{FIRST_PARTY_HOST}", "/gtag/js"): "gtag_sgtm.js",
    (FIRST_PARTY_HOST, "/js/AppMeasurement.js"): "appmeasurement.js",
    (FIRST_PARTY_HOST, "/analytics/matomo.js"): "matomo.js",
}


# -- script-URL ids ----------------------------------------------------------------------------

SCRIPT_IDS_URL = f"https://{SNIPPETS_HOST}/script-ids"

#: (vendor, account id, script URL): loaded bare, nothing else on the page.
SCRIPT_IDS: tuple[tuple[str, str, str], ...] = (
    ("google_analytics", "G-SCRIPTID01", "https://www.googletagmanager.com/gtag/js?id=G-SCRIPTID01"),
    ("tiktok", "CSCRIPTID00000000001",
     "https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=CSCRIPTID00000000001&lib=ttq"),
    ("facebook", "555566667777888", "https://connect.facebook.net/signals/config/555566667777888?v=2.9.179&r=stable"),
    ("hotjar", "7654321", "https://static.hotjar.com/c/hotjar-7654321.js?sv=6"),
    ("microsoft_clarity", "scrptid123", "https://www.clarity.ms/tag/scrptid123"),
)


def all_urls() -> list[str]:
    """Every page the browser tests crawl, once each."""
    return ([s.url for s in SNIPPETS] + [transport_url(t) for t in TRANSPORTS] + [LOOKALIKES_URL]
            + [f.url for f in FIRST_PARTY] + [SCRIPT_IDS_URL])
