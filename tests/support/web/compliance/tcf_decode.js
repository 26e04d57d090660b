// Decodes TC strings with the IAB's own decoder (@iabtcf/core): reads [tcString, ...] as JSON on stdin and
// prints [{vendorConsents, vendorLegitimateInterests, publisherRestrictions: [{purpose, type, vendors}],
// cmpId, purposeConsents} | {error}] on stdout.
// Usage: NODE_PATH=tests/support/web/npm/node_modules node tests/support/web/compliance/tcf_decode.js < in.json
const { TCString } = require("@iabtcf/core");
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((s) => {
    try {
      const d = TCString.decode(s);
      const restrictions = [];
      d.publisherRestrictions.getRestrictions().forEach((r) => {
        restrictions.push({ purpose: r.purposeId, type: r.restrictionType,
                            vendors: d.publisherRestrictions.getVendors(r) });
      });
      return { cmpId: d.cmpId, purposeConsents: [...d.purposeConsents.values()],
               vendorConsents: [...d.vendorConsents.values()],
               vendorLegitimateInterests: [...d.vendorLegitimateInterests.values()],
               publisherRestrictions: restrictions };
    } catch (e) {
      return { error: String(e) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
