self.addEventListener("install", function (event) {
  event.waitUntil(fetch("https://www.facebook.com/tr/?id=222233334444555&ev=ServiceWorkerInstall", { mode: "no-cors" }));
});
