// Test vectors from the IAB's own encoder (@iabtcf/core): reads
// [{name, gvl, cmpId, cmpVersion, consentScreen, publisherCountryCode, purposes, vendors,
//   legitimateVendors, specialFeatures}] as JSON on stdin and prints
// [{name, tcString, decoded: {...}}] on stdout (decoded again by @iabtcf/core).
// Usage: NODE_PATH=tests/support/web/npm/node_modules node tests/support/web/compliance/tcf_vectors.js < cases.json
const { GVL, TCModel, TCString } = require("@iabtcf/core");
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((c) => {
    const model = new TCModel(new GVL(c.gvl));
    Object.assign(model, { cmpId: c.cmpId, cmpVersion: c.cmpVersion, consentScreen: c.consentScreen,
                           publisherCountryCode: c.publisherCountryCode, isServiceSpecific: true });
    model.purposeConsents.set(c.purposes);
    model.vendorConsents.set(c.vendors);
    model.vendorLegitimateInterests.set(c.legitimateVendors);
    model.specialFeatureOptins.set(c.specialFeatures);
    const tcString = TCString.encode(model);
    const d = TCString.decode(tcString);
    return { name: c.name, tcString, decoded: {
      cmpId: d.cmpId, cmpVersion: d.cmpVersion, consentScreen: d.consentScreen, policyVersion: d.policyVersion,
      vendorListVersion: d.vendorListVersion, consentLanguage: d.consentLanguage,
      publisherCountryCode: d.publisherCountryCode, isServiceSpecific: d.isServiceSpecific,
      purposeConsents: [...d.purposeConsents.values()], purposeLegitimateInterests: [...d.purposeLegitimateInterests.values()],
      vendorConsents: [...d.vendorConsents.values()], vendorLegitimateInterests: [...d.vendorLegitimateInterests.values()],
      specialFeatureOptins: [...d.specialFeatureOptins.values()] } };
  });
  process.stdout.write(JSON.stringify(out));
});
