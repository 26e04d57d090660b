// Switch a toggle off (after a trusted click on it, which may have missed: a
// styled switch hides its input).  arguments[0]: a checkbox input or an
// element with role=switch/checkbox.  When it is still on, its click() method
// is called once.  Returns true when it is off at the end (gone counts as off).
const t = arguments[0];
const on = () => !!t && t.isConnected && (t.tagName === "INPUT" ? t.checked : t.getAttribute("aria-checked") === "true");
if (on()) { try { t.click(); } catch (e) {} }
return !on();
