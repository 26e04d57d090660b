// GPP test vectors from the IAB's own library (@iabgpp/cmpapi, the pinned npm fixture package).
// Reads one JSON request on stdin, prints the answer on stdout:
//   {"table": true}              -> {id: {name, segments: [{fields: [[name, type, bits, count]], included, absent}]}}
//                                   the field layout of every US section and uspv1, as the library defines it;
//   {"encode": [{sectionName: {field: value}}]} -> [gppString]  encoded by GppModel;
//   {"decode": [gppString]}      -> [{sections: {name: {...toObject(), <segment>Included}}} | {error}]
//                                   decoded by GppModel (toObject() plus each optional segment's "Included" flag).
// Usage: NODE_PATH=tests/support/web/npm/node_modules node tests/support/web/compliance/gpp_vectors.js < request.json
const api = require("@iabgpp/cmpapi");

function table() {
  const out = {};
  for (const key of Object.keys(api)) {
    const Section = api[key];
    if (!/^(Us[A-Z][a-z]+|UspV1)$/.test(key) || !Section.ID) continue;
    const section = new Section();
    out[Section.ID] = { name: Section.NAME, segments: section.segments.map((segment) => {
      const names = segment.getFieldNames();
      const included = [...segment.fields.getAll().keys()].filter((k) => !names.includes(k));
      return { fields: names.map((n) => { const f = segment.fields.get(n);
                 return [n, f.constructor.name, f.bitStringLength ?? f.elementBitStringLength ?? null,
                         f.numElements ?? null]; }),
               included: included[0] || null, absent: segment.toObj() };
    }) };
  }
  return out;
}

function encode(cases) {
  return cases.map((c) => {
    const model = new api.GppModel();
    for (const [name, fields] of Object.entries(c)) {
      for (const [field, value] of Object.entries(fields)) model.setFieldValue(name, field, value);
    }
    return model.encode();
  });
}

function decode(strings) {
  return strings.map((s) => {
    try {
      const model = new api.GppModel(s);
      const sections = model.toObject();
      for (const name of Object.keys(sections)) {
        for (const flag of ["GpcSegmentIncluded", "SensitiveDataConsentSegmentIncluded"]) {
          try { sections[name][flag] = model.getFieldValue(name, flag); } catch (e) { /* not in this section */ }
        }
      }
      return { sectionIds: model.getSectionIds(), sections };
    } catch (e) {
      return { error: String(e && e.message || e) };
    }
  });
}

let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  const answer = request.table ? table() : request.encode ? encode(request.encode) : decode(request.decode);
  process.stdout.write(JSON.stringify(answer));
});
