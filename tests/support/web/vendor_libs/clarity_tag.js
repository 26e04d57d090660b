/* Fixture emulation of www.clarity.ms/tag/<project>: the real response is a
   loader that pulls clarity.js from scripts.clarity.ms.  Loaded without the
   snippet's window.clarity stub, it does nothing. */
(function () {
  var c = window.clarity; if (typeof c !== "function" || c.__tag) return;
  var src = (document.currentScript && document.currentScript.src) || "";
  c.__tag = true; c.projectId = src.split("/tag/")[1].split(/[?#\/]/)[0];
  var t = document.createElement("script"); t.async = true; t.src = "https://scripts.clarity.ms/0.7.49/clarity.js";
  document.head.appendChild(t);
})();
