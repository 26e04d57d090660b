// Consent signals of one document, run by WebDriver as an async script.
// Calls the IAB APIs the page defines: __tcfapi('getTCData', 2), __uspapi('getUSPData', 1)
// and __gpp('ping'); answers {url, tcf, usp, gpp} (null where absent).  A CMP
// API that never calls back is given up after arguments[0] ms.
const done = arguments[arguments.length - 1];
const out = { url: location.href, tcf: null, usp: null, gpp: null };
let pending = 0, finished = false;
const finish = () => { if (!finished && --pending <= 0) { finished = true; done(out); } };
const call = (fn) => { pending++; try { fn(); } catch (e) { finish(); } };
if (typeof window.__tcfapi === "function") call(() => window.__tcfapi("getTCData", 2, (d, ok) => {
  if (ok && d) out.tcf = { tcString: d.tcString || null, cmpId: d.cmpId || null, eventStatus: d.eventStatus || null,
                           gdprApplies: d.gdprApplies === undefined ? null : d.gdprApplies };
  finish();
}));
if (typeof window.__uspapi === "function") call(() => window.__uspapi("getUSPData", 1, (d, ok) => {
  if (ok && d) out.usp = d.uspString || null;
  finish();
}));
if (typeof window.__gpp === "function") call(() => {
  const answer = (d) => { if (d) out.gpp = { gppString: d.gppString || null, applicableSections: d.applicableSections || [] }; finish(); };
  const sync = window.__gpp("ping", answer);  // GPP 1.1 answers by callback, 1.0 by return value
  if (sync && typeof sync === "object" && !out.gpp) answer(sync);
});
if (!pending) { finished = true; done(out); }
else setTimeout(() => { if (!finished) { finished = true; done(out); } }, arguments[0]);
