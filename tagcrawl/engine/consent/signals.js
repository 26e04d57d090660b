// Consent signals of one document, run by WebDriver as an async script.
// Calls the IAB APIs the page defines: __tcfapi('getTCData', 2), __uspapi('getUSPData', 1)
// and __gpp('ping'); answers {url, tcf, usp, gpp} (null where absent).  A CMP
// API that never calls back is given up after arguments[0] ms.
// Every value the page answers is bounded before it crosses to tagcrawl (tagcrawl/core/truncation.py):
// a string longer than arguments[1] characters is cut and marked "…[truncated K chars]", any other
// object is sent as its JSON text, cut the same way; applicableSections keeps its first arguments[2]
// entries (applicableSectionsCount: how many there were).  GPP's parsedSections (the sections the CMP
// decoded itself) is copied as JSON values, bounded by arguments[3] = [sections, values per section,
// characters per string or key, depth below a section]: extra entries are left out, deeper objects become
// null, and parsedSectionsCut says that something was.
const done = arguments[arguments.length - 1];
const MAX = arguments[1], ITEMS = arguments[2];
const [SECTIONS, VALUES, CHARS, DEPTH] = arguments[3];
const cut = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === "number" || typeof v === "boolean") return v;
  let s;
  try { s = typeof v === "string" ? v : JSON.stringify(v); } catch (e) { s = null; }
  if (typeof s !== "string") return null;
  return s.length > MAX ? s.slice(0, MAX) + "…[truncated " + (s.length - MAX) + " chars]" : s;
};
const short = (s) => s.length > CHARS ? s.slice(0, CHARS) + "…[truncated " + (s.length - CHARS) + " chars]" : s;
const copy = (v, depth, left, flag) => {  // left: [values still allowed]; flag: [anything left out]
  left[0]--;
  if (v === null || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "string") return short(v);
  if (v instanceof Date) return isNaN(v) ? null : v.toISOString();
  if (typeof v !== "object" || depth >= DEPTH) { flag[0] = true; return null; }
  if (Array.isArray(v)) {
    const kept = [];
    for (let i = 0; i < v.length; i++) {
      if (left[0] <= 0) { flag[0] = true; break; }
      kept.push(copy(v[i], depth + 1, left, flag));
    }
    return kept;
  }
  const kept = {};
  for (const key in v) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    if (left[0] <= 0) { flag[0] = true; break; }
    kept[short(key)] = copy(v[key], depth + 1, left, flag);
  }
  return kept;
};
const parsed = (all, gpp) => {
  if (!all || typeof all !== "object" || Array.isArray(all)) return null;
  const kept = {}, flag = [false];
  let n = 0;
  for (const name in all) {
    if (!Object.prototype.hasOwnProperty.call(all, name)) continue;
    if (++n > SECTIONS) { flag[0] = true; break; }
    kept[short(name)] = copy(all[name], 0, [VALUES], flag);
  }
  if (flag[0]) gpp.parsedSectionsCut = true;
  return kept;
};
const out = { url: cut(location.href), tcf: null, usp: null, gpp: null };
let pending = 0, finished = false;
const finish = () => { if (!finished && --pending <= 0) { finished = true; done(out); } };
const call = (fn) => { pending++; try { fn(); } catch (e) { finish(); } };
if (typeof window.__tcfapi === "function") call(() => window.__tcfapi("getTCData", 2, (d, ok) => {
  if (ok && d) out.tcf = { tcString: cut(d.tcString || null), cmpId: cut(d.cmpId || null),
                           eventStatus: cut(d.eventStatus || null),
                           gdprApplies: d.gdprApplies === undefined ? null : cut(d.gdprApplies) };
  finish();
}));
if (typeof window.__uspapi === "function") call(() => window.__uspapi("getUSPData", 1, (d, ok) => {
  if (ok && d) out.usp = cut(d.uspString || null);
  finish();
}));
if (typeof window.__gpp === "function") call(() => {
  const answer = (d) => {
    if (d) {
      const all = Array.isArray(d.applicableSections) ? d.applicableSections : [];
      out.gpp = { gppString: cut(d.gppString || null), applicableSections: all.slice(0, ITEMS).map(cut) };
      if (all.length > ITEMS) out.gpp.applicableSectionsCount = all.length;
      try { out.gpp.parsedSections = parsed(d.parsedSections, out.gpp); }
      catch (e) { out.gpp.parsedSections = null; out.gpp.parsedSectionsCut = true; }
    }
    finish();
  };
  const sync = window.__gpp("ping", answer);  // GPP 1.1 answers by callback, 1.0 by return value
  if (sync && typeof sync === "object" && !out.gpp) answer(sync);
});
if (!pending) { finished = true; done(out); }
else setTimeout(() => { if (!finished) { finished = true; done(out); } }, arguments[0]);
