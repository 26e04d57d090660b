// In the element's frame (arguments[0]: the element): scroll it into view when needed;
// returns [x, y, hit]: its centre in this frame's viewport (CSS px) and whether the element
// (or a descendant) is what is hit there; null when it has no box.
const el = arguments[0], r0 = el.getBoundingClientRect();
if (r0.width < 1 || r0.height < 1) return null;
if (r0.top < 0 || r0.left < 0 || r0.bottom > innerHeight || r0.right > innerWidth) {
  el.scrollIntoView({block: "center", inline: "center"});
}
const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
let hit = document.elementFromPoint(x, y);
while (hit && hit.shadowRoot && hit !== el) {
  const inner = hit.shadowRoot.elementFromPoint(x, y);
  if (!inner || inner === hit) break;
  hit = inner;
}
let n = hit;
while (n && n !== el) n = n.parentNode || n.host || null;
return [x, y, n === el];
