// A service worker of attacks.js: fetches an internal URL while it installs.
const q = new URLSearchParams(location.search);
const internal = q.get("target"), run = q.get("run");
self.addEventListener("install", (event) => {
  event.waitUntil(fetch(internal + "/service-worker", {mode: "no-cors"}).catch(() => {})
    .finally(() => fetch(`/__done?run=${run}&what=service_worker`).catch(() => {})));
});
