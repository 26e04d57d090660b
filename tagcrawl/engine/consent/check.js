// Verification (after dom.js): arguments[1..] are elements; returns [shown?] for
// each (gone from the DOM counts as not shown).
return Array.prototype.slice.call(arguments, 1).map((el) => !!el && shown(el));
