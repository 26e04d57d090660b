// The host end of DuckDuckGo autoconsent's message protocol, run first in
// tagcrawl's isolated world of every frame (never in the page's own world),
// just before autoconsent's content script (collectors/autoconsent.py).
// __BINDING__ is the crawl's binding, added to this world only
// (Runtime.addBinding executionContextName).  Each message goes out as JSON
// with "top" (is this the top document); a "report" is cut to its lifecycle;
// an opt-in/opt-out result carries "label", the text (at most 300
// characters) of the last element clicked, read by a listener of this world.
(() => {
  const send = window.__BINDING__;
  const top = window.top === window;
  let label = "";
  try {
    window.addEventListener("click", (event) => {
      try {
        const target = event.target;
        const el = (target && target.closest && target.closest("button,a,[role=button],input,label")) || target;
        label = String((el && (el.innerText || el.value || el.getAttribute("aria-label"))) || "").slice(0, 300);
      } catch (e) {}
    }, true);
  } catch (e) {}
  window.autoconsentSendMessage = (message) => {
    try {
      let out = message;
      if (message && message.type === "report") {
        const state = message.state || {};
        out = {type: "report", lifecycle: String(state.lifecycle || ""), clicks: Number(state.clicks) || 0};
      } else if (message && (message.type === "optInResult" || message.type === "optOutResult")) {
        out = Object.assign({}, message, {label: label});
      }
      send(JSON.stringify(Object.assign({}, out, {top: top})));
    } catch (e) {}
    return Promise.resolve();
  };
})();
