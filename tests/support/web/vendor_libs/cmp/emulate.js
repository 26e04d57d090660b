/* Fixture emulation of a consent-management platform, served from the CMP's
   real script URL (tests/support/web/cmp_pages.py fills in CFG from tests/support/cmp_cases.py).
   Like the real script it defines the CMP's globals (and the IAB TCF API for
   TCF CMPs), draws the CMP's DOM (in the page, in a shadow root, or as the
   container of the CMP's own cross-site iframe) and, when the visitor
   accepts, writes the CMP's consent cookies and storage entries, closes the
   banner, tells TCF listeners "useractioncomplete" and fires the page's
   consent callback (the "fixtureconsent" event, which loads the gated pixel).
   Its refuse button (a "Reject all"/"Decline"/"Deny" of the real markup)
   stores the refusal (fixture_cmp_rejected), closes the banner, and fires nothing. */
(function (CFG) {
  "use strict";
  if (window.__fixtureCmpLoaded) return;
  window.__fixtureCmpLoaded = true;

  CFG.globals.forEach(function (path) {
    if (/^__tcfapi/.test(path)) return;
    var o = window;
    path.split(".").forEach(function (part) {
      if (o[part] === undefined) o[part] = function () {};
      o = o[part];
    });
  });

  var tcfListeners = [], eventStatus = "tcloaded", displayStatus = "hidden", consented = false;
  function tcData(listenerId) {
    return { tcString: consented ? CFG.cookies["euconsent-v2"] || "CQfixture" : "", gdprApplies: true,
             eventStatus: eventStatus, cmpStatus: "loaded", cmpId: CFG.cmpId, listenerId: listenerId };
  }
  if (CFG.tcf) {
    window.__tcfapi = function (command, version, callback, parameter) {
      if (command === "ping") {
        callback({ gdprApplies: true, cmpLoaded: true, cmpStatus: "loaded", displayStatus: displayStatus,
                   apiVersion: "2.2", cmpVersion: 1, cmpId: CFG.cmpId, gvlVersion: 300, tcfPolicyVersion: 4 }, true);
      } else if (command === "addEventListener") {
        var id = tcfListeners.push(callback);
        callback(tcData(id), true);
      } else if (command === "removeEventListener") {
        tcfListeners[parameter - 1] = null;
        callback(true);
      } else if (command === "getTCData") {
        callback(tcData(), true);
      }
    };
  }
  function tell(status) {
    eventStatus = status;
    tcfListeners.forEach(function (listener, i) { if (listener) listener(tcData(i + 1), true); });
  }

  var drawn = [];
  function close() {
    drawn.forEach(function (node) {
      if (CFG.hide === "hide" && node.style) node.style.display = "none";
      else if (node.parentNode) node.parentNode.removeChild(node);
    });
    displayStatus = "hidden";
  }
  function store(name, value) {
    document.cookie = name + "=" + encodeURIComponent(value) + "; path=/; max-age=31536000; SameSite=Lax";
  }
  function accept() {
    if (consented) return;
    consented = true;
    Object.keys(CFG.cookies).forEach(function (name) { store(name, CFG.cookies[name]); });
    Object.keys(CFG.storage).forEach(function (key) {
      try { localStorage.setItem(key, CFG.storage[key]); } catch (e) {}
    });
    close();
    tell("useractioncomplete");
    window.dispatchEvent(new Event("fixtureconsent"));
  }
  function reject() {
    store("fixture_cmp_rejected", "1");
    close();
    tell("useractioncomplete");
  }

  // Declarative shadow DOM in the markup becomes an attached shadow root,
  // as the real CMP builds it with attachShadow().
  function attachShadows(container) {
    var templates = container.querySelectorAll("template[shadowrootmode]");
    Array.prototype.forEach.call(templates, function (template) {
      var host = template.parentNode;
      var root = host.attachShadow({ mode: template.getAttribute("shadowrootmode") });
      root.appendChild(template.content.cloneNode(true));
      host.removeChild(template);
      attachShadows(root);
      wire(root);
    });
  }
  function wire(root) {
    var button = root.querySelector(CFG.accept);
    if (button) button.addEventListener("click", function (event) { event.preventDefault(); accept(); });
    Array.prototype.forEach.call(root.querySelectorAll("[data-fixture-reject]"), function (el) {
      el.addEventListener("click", function (event) { event.preventDefault(); reject(); });
    });
    // The CMP's own refuse button in its real markup ("Reject all", "Decline", "Deny", "Only necessary").
    Array.prototype.forEach.call(root.querySelectorAll("button,a,[role=button]"), function (el) {
      if (el !== button && REJECT_LABEL.test(el.textContent || "")) {
        el.addEventListener("click", function (event) { event.preventDefault(); reject(); });
      }
    });
  }
  var REJECT_LABEL = /^\s*(reject|decline|deny|refuse|only necessary|i decline|continue without)/i;
  var BASE_STYLE = "position:fixed;left:0;right:0;bottom:0;z-index:2147483000;background:#fff;color:#222;" +
    "padding:16px;border-top:1px solid #ccc;font:14px sans-serif";
  function draw() {
    var holder = document.createElement("div");
    holder.innerHTML = CFG.markup;
    attachShadows(holder);
    var first = holder.firstElementChild;
    if (first && !first.getAttribute("style")) first.setAttribute("style", BASE_STYLE);
    while (holder.firstChild) {
      var node = holder.firstChild;
      document.body.appendChild(node);
      if (node.nodeType === 1) drawn.push(node);
    }
    if (CFG.mount !== "frame") wire(document);
    displayStatus = "visible";
    tell("cmpuishown");
  }
  if (CFG.mount === "frame") {
    window.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.fixtureCmp === "accept") accept();
      else if (data.fixtureCmp === "reject") reject();
    });
  }
  if (document.body) draw(); else document.addEventListener("DOMContentLoaded", draw);
})(__CONFIG__);
