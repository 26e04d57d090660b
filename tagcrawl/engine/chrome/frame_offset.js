// In a frame's parent (arguments[0]: the frame element): [left, top], where the frame's
// content box starts in this viewport (CSS px).
const f = arguments[0], r = f.getBoundingClientRect(), s = getComputedStyle(f);
return [r.left + f.clientLeft + parseFloat(s.paddingLeft), r.top + f.clientTop + parseFloat(s.paddingTop)];
