/* A TCF v2.2 CMP built on the IAB's own @iabtcf/cmpapi and @iabtcf/core (loaded as ES
   modules from the npm CDN; "@iabtcf/core" resolved by the page's import map).
   Draws #tcf-banner; "Accept all" consents to every purpose and vendor of the GVL,
   "Reject all" to none; either encodes the TC string with TCString.encode, stores it
   in the euconsent-v2 cookie and hands it to CmpApi.update (eventStatus
   useractioncomplete).  CMP id 300 (the fixture's), GVL from window.FIXTURE_GVL. */
import { CmpApi } from "__CMPAPI__";
import { GVL, TCModel, TCString } from "@iabtcf/core";

const cmpApi = new CmpApi(300, 2, false);
const gvl = new GVL(window.FIXTURE_GVL);
const banner = document.getElementById("tcf-banner");
cmpApi.update("", true);
banner.style.display = "block";

function decide(all) {
  const model = new TCModel(gvl);
  model.cmpId = 300; model.cmpVersion = 2; model.publisherCountryCode = "FR"; model.consentScreen = 1;
  if (all) {
    model.setAllPurposeConsents(); model.setAllVendorConsents(); model.setAllSpecialFeatureOptins();
  }
  const tcString = TCString.encode(model);
  document.cookie = "euconsent-v2=" + tcString + "; path=/; max-age=33696000";
  banner.remove();
  cmpApi.update(tcString, false);
}
banner.querySelector("[data-tcf=accept]").addEventListener("click", () => decide(true));
banner.querySelector("[data-tcf=reject]").addEventListener("click", () => decide(false));
