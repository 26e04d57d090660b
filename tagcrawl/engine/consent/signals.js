// Consent signals of one document, run by WebDriver as an async script.
// Calls the IAB APIs the page defines: __tcfapi('getTCData', 2), __uspapi('getUSPData', 1)
// and __gpp('ping'); answers {url, tcf, usp, gpp} (null where absent).  A CMP
// API that never calls back is given up after arguments[0] ms.
// Every value the page answers is bounded before it crosses to tagcrawl (tagcrawl/core/truncation.py):
// a string longer than arguments[1] characters is cut and marked "…[truncated K chars]", any other
// object is sent as its JSON text, cut the same way; applicableSections keeps its first arguments[2]
// entries (applicableSectionsCount: how many there were).
const done = arguments[arguments.length - 1];
const MAX = arguments[1], ITEMS = arguments[2];
const cut = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === "number" || typeof v === "boolean") return v;
  let s;
  try { s = typeof v === "string" ? v : JSON.stringify(v); } catch (e) { s = null; }
  if (typeof s !== "string") return null;
  return s.length > MAX ? s.slice(0, MAX) + "…[truncated " + (s.length - MAX) + " chars]" : s;
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
    }
    finish();
  };
  const sync = window.__gpp("ping", answer);  // GPP 1.1 answers by callback, 1.0 by return value
  if (sync && typeof sync === "object" && !out.gpp) answer(sync);
});
if (!pending) { finished = true; done(out); }
else setTimeout(() => { if (!finished) { finished = true; done(out); } }, arguments[0]);
