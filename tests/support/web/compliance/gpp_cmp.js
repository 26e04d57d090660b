/* A US privacy CMP built on the IAB's own @iabgpp/cmpapi (ES module from the npm
   CDN): its US Privacy section (uspv1, GPP section 6) says notice given, not opted
   out of sale; "Do not sell" sets OptOutSale, "Accept" keeps it, and both
   close #gpp-banner.  The page's __gpp stub (fixture code) queues calls until
   the CmpApi takes over, as the GPP CMP API specification asks of a stub. */
import { CmpApi, CmpStatus, CmpDisplayStatus } from "__GPPAPI__";

const cmpApi = new CmpApi(300, 2);
cmpApi.setFieldValue("uspv1", "Notice", "Y");
cmpApi.setFieldValue("uspv1", "OptOutSale", "N");
cmpApi.setFieldValue("uspv1", "LspaCovered", "N");
cmpApi.setApplicableSections([6]);
cmpApi.setCmpStatus(CmpStatus.LOADED);
cmpApi.setCmpDisplayStatus(CmpDisplayStatus.VISIBLE);
const banner = document.getElementById("gpp-banner");
function choose(optOut) {
  cmpApi.setFieldValue("uspv1", "OptOutSale", optOut ? "Y" : "N");
  cmpApi.fireSectionChange("uspv1");
  cmpApi.setCmpDisplayStatus(CmpDisplayStatus.HIDDEN);
  document.cookie = "us_privacy=" + cmpApi.getSectionString("uspv1") + "; path=/; max-age=31536000";
  banner.remove();
  ccTags.anyChoice();
  if (!optOut) ccTags.accepted();
}
banner.querySelector("[data-gpp=accept]").addEventListener("click", () => choose(false));
banner.querySelector("[data-gpp=reject]").addEventListener("click", () => choose(true));
