// lz-string vectors from the real npm package (lz-string 1.5.0, pinned in tests/support/web/npm).
// Reads {compress: [text, ...], decompress: [input, ...]} as JSON on stdin and prints
// {compressed: [{base64, uri}, ...], decompressed: [{base64, uri}, ...]} on stdout:
// compressToBase64 / compressToEncodedURIComponent of each text, and decompressFromBase64 /
// decompressFromEncodedURIComponent of each input (null stays null; a stream the package throws on,
// such as one whose first code is 3, gives {error: message}).
// Usage: NODE_PATH=tests/support/web/npm/node_modules node tests/support/web/encodings/lz_vectors.js < in.json
const LZString = require("lz-string");
const attempt = (fn) => { try { return fn(); } catch (e) { return { error: String(e) }; } };
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const out = {
    compressed: (job.compress || []).map((t) => ({
      base64: LZString.compressToBase64(t), uri: LZString.compressToEncodedURIComponent(t) })),
    decompressed: (job.decompress || []).map((s) => ({
      base64: attempt(() => LZString.decompressFromBase64(s)),
      uri: attempt(() => LZString.decompressFromEncodedURIComponent(s)) })),
  };
  process.stdout.write(JSON.stringify(out));
});
