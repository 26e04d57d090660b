// The page's own script: one localStorage and one sessionStorage write (first party).
(function () {
  localStorage.setItem("fp_cart", JSON.stringify({ items: [1, 2, 3] }));
  sessionStorage.setItem("fp_session", "s-123");
})();
