/* A US CMP built on the IAB's own @iabgpp/cmpapi (ES module from the npm CDN) with the US national
   (usnat, GPP section 7) and California (usca, 8) sections: notices given, no choice yet (0).
   "Accept" sets the opt-outs to 2 (did not opt out), "Do not sell or share" to 1 (opted out); both
   store the GPP string in the gpp_consent cookie and close #gpp-banner.  The page's __gpp stub (fixture
   code) queues calls until the CmpApi takes over.  tests/browser/test_gpp.py reads what
   __gpp('ping') answers (parsedSections) through a crawl. */
import { CmpApi, CmpStatus, CmpDisplayStatus } from "__GPPAPI__";

const cmpApi = new CmpApi(300, 2);
for (const field of ["SharingNotice", "SaleOptOutNotice", "SharingOptOutNotice", "TargetedAdvertisingOptOutNotice"]) {
  cmpApi.setFieldValue("usnat", field, 1);
}
cmpApi.setFieldValue("usnat", "MspaCoveredTransaction", 2);
cmpApi.setFieldValue("usca", "SaleOptOutNotice", 1);
cmpApi.setFieldValue("usca", "SharingOptOutNotice", 1);
cmpApi.setFieldValue("usca", "KnownChildSensitiveDataConsents", [1, 2]);
cmpApi.setFieldValue("usca", "MspaCoveredTransaction", 2);
cmpApi.setApplicableSections([7, 8]);
cmpApi.setCmpStatus(CmpStatus.LOADED);
cmpApi.setCmpDisplayStatus(CmpDisplayStatus.VISIBLE);
const banner = document.getElementById("gpp-banner");
function choose(optOut) {
  const value = optOut ? 1 : 2;
  for (const field of ["SaleOptOut", "SharingOptOut", "TargetedAdvertisingOptOut"]) cmpApi.setFieldValue("usnat", field, value);
  for (const field of ["SaleOptOut", "SharingOptOut"]) cmpApi.setFieldValue("usca", field, value);
  cmpApi.fireSectionChange("usnat");
  cmpApi.fireSectionChange("usca");
  cmpApi.setCmpDisplayStatus(CmpDisplayStatus.HIDDEN);
  document.cookie = "gpp_consent=" + encodeURIComponent(cmpApi.getGppString()) + "; path=/; max-age=31536000";
  banner.remove();
  ccTags.anyChoice();
  if (!optOut) ccTags.accepted();
}
banner.querySelector("[data-gpp=accept]").addEventListener("click", () => choose(false));
banner.querySelector("[data-gpp=reject]").addEventListener("click", () => choose(true));
