"""Known consent-management platforms (CMPs), as data.

One entry per CMP:

- ``name``: reported as the CMP.
- ``presence``: CSS selectors of its banner (or of the container of its
  iframe), searched in the document, in open shadow roots and in closed ones
  the page hooks recorded.  The first one that is shown wins.
- ``accept``: CSS selectors of its accept-all button, in order of preference,
  searched inside the banner first, then in the whole document.  When none
  matches (CMPs with generated class names), the button is found by its label
  inside the banner (``consent_rules.ACCEPT_PHRASES``).
- ``frames``: host suffixes of the CMP's own iframe documents (cross-site
  banners); in such a document the banner is the whole document and
  ``frame_accept`` lists the accept selectors.
- ``globals``: JS globals its script defines (dotted paths allowed), used to
  name the CMP when its banner was found by another layer.
- ``consent_cookies`` / ``storage``: names (or prefixes) of the cookies and
  localStorage entries it writes on consent, used to verify the click.
- ``reject`` / ``settings`` / ``save`` (and ``frame_reject`` ... for its iframe
  documents): the refusal path, from ``OPT_OUT`` (``consent_rules_optout.py``): CSS selectors of its
  "Reject all" button, of the button that opens its second layer, and of the
  second layer's "Save"/"Confirm" button.  When none matches, the refusal is
  found by its label (``consent_rules.REJECT_WORDS``), like the accept button.

Adding a CMP is one entry here plus one case in ``tests/support/cmp_cases.py``.
"""
from __future__ import annotations

from tagcrawl.engine.consent.optout import OPT_OUT


def cmp(name, presence, accept, globals_, cookies=(), storage=(), frames=(), frame_accept=()):
    """One CMP entry (see the module docstring for the fields)."""
    entry = {"name": name, "presence": list(presence), "accept": list(accept), "globals": list(globals_),
             "consent_cookies": list(cookies), "storage": list(storage), "frames": list(frames),
             "frame_accept": list(frame_accept)}
    for key in ("reject", "settings", "save", "frame_reject", "frame_settings", "frame_save"):
        entry[key] = list(OPT_OUT.get(name, {}).get(key, ()))
    return entry


TCF_COOKIES = ("euconsent-v2", "addtl_consent")

CMPS: list[dict] = [
    cmp("OneTrust", ["#onetrust-banner-sdk", "#onetrust-pc-sdk"],
        ["#onetrust-accept-btn-handler", "#accept-recommended-btn-handler"],
        ["OneTrust", "Optanon", "OnetrustActiveGroups"], ["OptanonAlertBoxClosed", "OptanonConsent"]),
    cmp("Cookiebot", ["#CybotCookiebotDialog"],
        ["#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll", "#CybotCookiebotDialogBodyButtonAccept",
         "#CybotCookiebotDialogBodyLevelButtonAccept"],
        ["Cookiebot", "CookieConsent"], ["CookieConsent"]),
    cmp("Didomi", ["#didomi-notice", "#didomi-popup", "#didomi-host"], ["#didomi-notice-agree-button"],
        ["Didomi", "didomiOnReady"], ["didomi_token", *TCF_COOKIES], ["didomi_token", "euconsent-v2"]),
    cmp("Usercentrics", ["#uc-center-container", "[data-testid=uc-default-banner]", "#usercentrics-cmp-ui"],
        ["[data-testid=uc-accept-all-button]", "button#accept"],
        ["UC_UI", "usercentrics", "__ucCmp"], [], ["uc_settings", "uc_user_interaction", "ucData", "ucString"]),
    cmp("Quantcast Choice (InMobi)", ["#qc-cmp2-ui"],
        [".qc-cmp2-summary-buttons button[mode=primary]", "#qc-cmp2-ui button[mode=primary]"],
        ["__tcfapi", "__uspapi", "__gpp"], TCF_COOKIES),
    cmp("Sourcepoint", ['div[id^="sp_message_container_"]', 'iframe[id^="sp_message_iframe_"]'], [],
        ["_sp_", "_sp_queue"], ["consentUUID", "_sp_v1_", "_sp_su", *TCF_COOKIES], [],
        ["privacy-mgmt.com", "sp-prod.net"],
        ["button.sp_choice_type_11", "button.sp_choice_type_ACCEPT_ALL", ".sp_choice_type_11"]),
    cmp("TrustArc", ["#truste-consent-track", ".truste_box_overlay", ".truste_popframe", "#consent_blackbar"],
        ["#truste-consent-button"],
        ["truste", "PrivacyManagerAPI"],
        ["notice_preferences", "notice_gdpr_prefs", "cmapi_cookie_privacy", "cmapi_gtm_bl", "TAconsentID",
         "notice_behavior"], [], ["consent-pref.trustarc.com"], [".pdynamicbutton .call", "a.call"]),
    cmp("Google Funding Choices", [".fc-consent-root .fc-dialog-container", ".fc-consent-root .fc-dialog"],
        ["button.fc-cta-consent", ".fc-cta-consent"], ["googlefc", "__googlefc"], ["FCCDCF", "FCNEC", *TCF_COOKIES]),
    cmp("CookieYes", [".cky-consent-container", ".cky-consent-bar"],
        ["[data-cky-tag=accept-button]", ".cky-btn-accept"], ["getCkyConsent", "revisitCkyConsent"],
        ["cookieyes-consent"]),
    cmp("Complianz", ["#cmplz-cookiebanner-container .cmplz-cookiebanner", ".cmplz-cookiebanner"],
        [".cmplz-cookiebanner .cmplz-accept", ".cmplz-accept"], ["complianz", "cmplz_has_consent"],
        ["cmplz_banner-status", "cmplz_marketing", "cmplz_statistics", "cmplz_consented_services",
         "cmplz_policy_id"]),
    cmp("Osano", [".osano-cm-window .osano-cm-dialog", ".osano-cm-dialog"],
        [".osano-cm-accept-all", ".osano-cm-button--type_accept", ".osano-cm-accept"], ["Osano"],
        ["osano_consentmanager", "osano_consentmanager_uuid"]),
    cmp("iubenda", ["#iubenda-cs-banner"], [".iubenda-cs-accept-btn"], ["_iub"], ["_iub_cs-"], ["IUB_DATA"]),
    cmp("consentmanager", ["#cmpbox", "#cmpbox2"], [".cmpboxbtnyes", "#cmpwelcomebtnyes a", "#cmpbntyestxt"],
        ["__cmp", "cmpmngr"], ["__cmpc", "__cmpconsent", *TCF_COOKIES]),
    cmp("Cookie-Script", ["#cookiescript_injected"], ["#cookiescript_accept"], ["CookieScript"],
        ["CookieScriptConsent"]),
    cmp("Civic Cookie Control", ["#ccc-notify", "#ccc-module"],
        ["#ccc-notify-accept", "#ccc-recommended-settings"], ["CookieControl"], ["CookieControl"]),
    cmp("Ezoic", ["#ez-cookie-dialog-wrapper", "#ez-cookie-dialog"], ["#ez-accept-all"],
        ["ezCMP", "ezTcfConsent", "__ezconsent"], ["ezCMPCCS", "ez-consent-tcf", *TCF_COOKIES]),
    cmp("CookieFirst", [".cookiefirst-root", "#cookiefirst-root"], ["[data-cookiefirst-action=accept]"],
        ["CookieFirst"], ["cookiefirst-consent"], ["cookiefirst-consent", "cookiefirst-id"]),
    cmp("Klaro", [".klaro .cookie-notice", ".klaro .cookie-modal"],
        [".klaro .cm-btn-accept-all", ".klaro .cn-buttons .cm-btn-success", ".klaro .cm-btn-success"],
        ["klaro", "klaroConfig"], ["klaro"], ["klaro"]),
    cmp("Ketch", ["#ketch-consent-banner", "#lanyard_root"], [], ["ketch", "semaphore"],
        ["_ketch_consent_v1_", "_swb"], ["_ketch_consent_v1_"]),
    cmp("Termly", ["#termly-code-snippet-support"], ['[data-tid="banner-accept"]'], ["Termly"],
        ["t_uid", "termly"], ["TERMLY_API_CACHE"]),
    cmp("Borlabs Cookie", ["#BorlabsCookieBox ._brlbs-bar-wrap", "#BorlabsCookieBox ._brlbs-box-wrap"],
        ["a[data-cookie-accept-all]", "._brlbs-btn-accept-all", "#CookieBoxSaveButton"], ["BorlabsCookie"],
        ["borlabs-cookie"]),
    cmp("Axeptio", [".axeptio_widget"], ["#axeptio_btn_acceptAll"],
        ["axeptioSDK", "_axcb", "axeptioSettings"],
        ["axeptio_cookies", "axeptio_authorized_vendors", "axeptio_all_vendors"]),
    cmp("Cookie Information", ["#coiOverlay", "#cookie-information-template-wrapper"],
        ["button.coi-banner__accept", "#coiOverlay .coi-banner__accept"], ["CookieInformation"],
        ["CookieInformationConsent"]),
    cmp("Piwik PRO Consent Manager", ["[id^=ppms_cm_consent_popup_]", "#ppms_cm_popup_overlay"],
        ["#ppms_cm_agree-to-all", "button.ppms_cm_agree-to-all"], ["ppms"], ["ppms_privacy_"]),
    cmp("Commanders Act TrustCommander", ["#footer_tc_privacy", "#popin_tc_privacy", "#header_tc_privacy",
                                          "#privacy-iframe"],
        ["#footer_tc_privacy_button", "#popin_tc_privacy_button"], ["tC", "tC.privacy"],
        ["TC_PRIVACY", "TC_PRIVACY_CENTER"]),
    cmp("Sirdata", ["#sd-cmp"], ["#sd-cmp button.sd-cmp-JnaLO", "#sd-cmp .sd-cmp-TVq-W > div:nth-child(3) > button"],
        ["Sddan", "__sdcmpapi"], TCF_COOKIES),
    cmp("LiveRamp Privacy Manager", ["#gdpr-consent-tool-wrapper", "iframe#gdpr-consent-notice"], [],
        ["__tcfapi"], TCF_COOKIES,
        ["euconsent-v2", "cconsent-v2", "addtl_consent", "gdpr-dau", "gdpr-last-interaction", "gdpr-auditId"],
        ["privacymanager.io"], ["#save", ".noDenyButton .accept-all", "button.accept-all"]),
    cmp("Admiral", ["div[class^='a__'][style^='z-index']:has(div[class*=Card] div[class*=Pills])",
                    "div[class*=Card]:has(> div[class*=Frame] > div[class*=Pills] > button[class*=Pills__])"],
        ["div[class^='Frame'] > button:nth-child(2)"], ["admiral"], TCF_COOKIES),
    cmp("CookieHub", [".ch2-dialog", ".ch2-settings"], [".ch2-allow-all-btn"], ["cookiehub"], ["cookiehub"]),
    cmp("GDPR Cookie Compliance (Moove)", ["#moove_gdpr_cookie_info_bar"],
        [".moove-gdpr-infobar-allow-all"], ["moove_frontend_gdpr_scripts"], ["moove_gdpr_popup"]),
    cmp("Real Cookie Banner", [".rcb-banner", "[consent-skip-blocker][data-bg]"], [],
        ["consentApi", "realCookieBanner"], ["real_cookie_banner"]),
    cmp("Cookie Notice (WordPress)", ["#cookie-notice"], ["#cn-accept-cookie"], ["cnArgs"],
        ["cookie_notice_accepted"]),
    cmp("CookieLawInfo (GDPR Cookie Consent)", ["#cookie-law-info-bar"],
        ["#wt-cli-accept-all-btn", "#cookie_action_close_header", ".cookie_action_close_header"],
        ["CLI", "cli_cookiebar_settings"], ["viewed_cookie_policy", "cookielawinfo-checkbox-", "CookieLawInfoConsent"]),
    cmp("Shopify privacy banner", ["#shopify-pc__banner"], ["#shopify-pc__banner__btn-accept"],
        ["Shopify.customerPrivacy", "privacyBanner"], ["_tracking_consent"]),
    cmp("HubSpot cookie banner", ["#hs-eu-cookie-confirmation"], ["#hs-eu-confirmation-button"], ["_hsp"],
        ["__hs_opt_out", "__hs_cookie_cat_pref", "__hs_initial_opt_in"]),
    cmp("cookieconsent (Osano open source)", [".cc-window.cc-banner", ".cc-window"],
        [".cc-window .cc-allow", ".cc-window .cc-dismiss"], ["cookieconsent.initialise"], ["cookieconsent_status"]),
    cmp("tarteaucitron", ["#tarteaucitronAlertBig"],
        ["#tarteaucitronPersonalize2", "#tarteaucitronAllAllowed", "#tarteaucitronPersonalize"],
        ["tarteaucitron"], ["tarteaucitron"]),
    cmp("Orejime", [".orejime-Notice", ".orejime-Banner"],
        [".orejime-Notice-saveButton", ".orejime-Banner-saveButton", ".orejime-Button--save"],
        ["orejime", "orejimeConfig"], ["orejime"]),
    cmp("Transcend", ["#transcend-consent-manager"], [], ["transcend", "airgap"], [], ["tcmConsent"]),
    cmp("Crownpeak (Evidon)", ["#_evidon_banner", "#_evidon-barrier-wrapper", "#_evidon-banner"],
        ["#_evidon-accept-button", "#_evidon-banner-acceptbutton", ".evidon-barrier-acceptbutton"], ["evidon"],
        ["_evidon_consent_cookie"]),
    cmp("CookieConsent v3 (orestbida)", ["#cc-main .cm", "#cc-main .pm"], ["#cc-main [data-role=all]"],
        ["CookieConsent.acceptCategory"], ["cc_cookie"]),
    cmp("EU Cookie Compliance (Drupal)", [".eu-cookie-compliance-banner", "#sliding-popup"],
        [".eu-cookie-compliance-banner .agree-button", ".eu-cookie-compliance-secondary-button.agree-button"],
        ["Drupal.eu_cookie_compliance"], ["cookie-agreed"]),
    cmp("Ensighten Privacy", ["#ensNotifyBanner", "#ensModalWrapper"], ["#ensAcceptAll", "#ensCloseBanner"],
        ["Bootstrapper.gateway", "Bootstrapper"], ["ENSIGHTEN_PRIVACY_"]),
    cmp("TermsFeed Cookie Consent", [".termsfeed-com---nb"], [".termsfeed-com---nb .cc-nb-okagree"],
        ["cookieconsent.run"], ["cookie_consent_user_accepted", "cookie_consent_level"]),
]
