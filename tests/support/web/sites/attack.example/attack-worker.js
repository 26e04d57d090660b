// A dedicated worker of attacks.js: fetch() or importScripts() of an internal URL.
const q = new URLSearchParams(location.search);
const internal = q.get("target"), run = q.get("run"), mode = q.get("mode");
const done = (what) => fetch(`/__done?run=${run}&what=${what}`).catch(() => {});
if (mode === "import") {
  try { importScripts(internal + "/import.js"); done("import_scripts"); } catch (e) { done("import_scripts"); }
} else {
  fetch(internal + "/worker", {mode: "no-cors"}).catch(() => {}).finally(() => done("worker"));
}
