// Consent scanner, run by WebDriver in one document (one frame).
// arguments[0]: {cmps, accept, never, consentWords}.  Returns null or
// {cmp, how, banner: true, button: <element|null>, text, frames: <iframes>}.
// It searches the document and every open shadow root.
const R = arguments[0];
const roots = [];
(function walk(root) {
  roots.push(root);
  for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
})(document);
const all = (sel) => { const out = []; for (const r of roots) { try { out.push(...r.querySelectorAll(sel)); } catch (e) {} } return out; };
const visible = (el) => {
  if (!el || !el.isConnected) return false;
  const rect = el.getBoundingClientRect();
  if (rect.width < 1 || rect.height < 1) return false;
  for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode && n.getRootNode().host)) {
    const s = getComputedStyle(n);
    if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return false;
  }
  return true;
};
const norm = (t) => (t || "").replace(/\s+/g, " ").trim();
const label = (el) => norm(el.innerText || el.value || el.getAttribute("aria-label") || el.textContent);
const key = (t) => norm(t.toLowerCase().replace(/[\u2000-\u206f\u2e00-\u2e7f!"#$%&'()*+,\-.\/:;<=>?@\[\]^_`{|}~\u00a1\u00bf\u3001\u3002\uff01\uff0c\uff1f\u2713\u2714]/g, " "));
const accept = new Set(R.accept.map(key));
const never = R.never.map((w) => w.toLowerCase());
const isAccept = (el) => { const k = key(label(el)); return k.length > 0 && accept.has(k) && !never.some((w) => k.includes(w)); };
const result = (extra) => Object.assign({ banner: true, button: null, text: null, frames: [] }, extra);

for (const cmp of R.cmps) {
  const banner = cmp.presence.map(all).flat().find(visible);
  if (!banner) continue;
  for (const sel of cmp.accept) {
    const btn = all(sel).find(visible);
    if (btn) return result({ cmp: cmp.name, how: "cmp", button: btn, text: label(btn) });
  }
  const inside = [...banner.querySelectorAll("button,[role=button],a,input[type=button],input[type=submit]")].find((b) => visible(b) && isAccept(b));
  return result({ cmp: cmp.name, how: "cmp", button: inside || null, text: inside ? label(inside) : null });
}

let tcf = null;
if (typeof window.__tcfapi === "function") {
  try { window.__tcfapi("ping", 2, (p) => { tcf = p; }); } catch (e) {}
}

const layered = (el) => {
  for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode && n.getRootNode().host)) {
    const s = getComputedStyle(n);
    if (s.position === "fixed" || s.position === "sticky" || n.tagName === "DIALOG" ||
        ["dialog", "alertdialog"].includes(n.getAttribute("role")) || n.getAttribute("aria-modal") === "true") return n;
  }
  return null;
};
const words = R.consentWords.map((w) => w.toLowerCase());
const buttons = all("button,[role=button],a,input[type=button],input[type=submit]").filter(visible);
for (const btn of buttons) {
  if (!isAccept(btn)) continue;
  const box = layered(btn);
  if (!box) continue;
  const text = (box.innerText || box.textContent || "").toLowerCase();
  if (!words.some((w) => text.includes(w))) continue;
  return result({ cmp: tcf && tcf.cmpId ? "TCF CMP " + tcf.cmpId : null, how: "heuristic", button: btn, text: label(btn) });
}
const frames = all("iframe").filter(visible);
if (tcf && tcf.displayStatus === "visible") return result({ cmp: "TCF CMP " + (tcf.cmpId || "?"), how: "tcf", frames });
return { banner: false, frames };
