// Three fetch() calls of a body that never ends (/__fixture/endless), none of them read:
// what the server keeps sending piles up somewhere between it and the page.  The responses
// are kept referenced so that none is collected (and cancelled).  Once the three have their
// headers (the bodies are flowing), the page says so with a pixel, and from then on keeps
// itself busy the way deadline.example does (a script that never arrives, a new one every
// 3 s), so that a crawl with a long quiet cap runs to its deadline.
window.unreadResponses = [];
Promise.all([1, 2, 3].map(function (n) {
  return fetch("/__fixture/endless?n=" + n).then(function (response) {
    window.unreadResponses.push(response);
  });
})).then(function () {
  new Image().src = "/__fixture/pixel.gif?unread=flowing";
  var n = 0;
  (function busy() {
    var script = document.createElement("script");
    script.src = "/__fixture/hang?unread=" + n++;
    document.body.appendChild(script);
    setTimeout(busy, 3000);
  })();
});
