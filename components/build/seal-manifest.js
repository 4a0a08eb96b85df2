// The build's last step: gives the Tailwind output a content-hashed name and records it in
// manifest.json (the same immutable caching as the scripts), and records the server bundle's
// hash there too. The manifest is written last, so it names one consistent build: Flask renders
// islands with the server bundle of the manifest it serves scripts from.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";

const dir = "app/static/build";
const cssSource = "components/styles/site.css";
const serverSource = "components/server.js";
const serverBundle = "app/build/ssr.js";
const digest = (bytes) => createHash("sha256").update(bytes).digest("base64url");

const css = readFileSync(`${dir}/site.css`);
const file = `site-${digest(css).slice(0, 8)}.css`;
for (const old of readdirSync(dir)) {
  if (/^site-.+\.css$/.test(old) && old !== file) unlinkSync(`${dir}/${old}`);
}
renameSync(`${dir}/site.css`, `${dir}/${file}`);

const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, "utf8"));
manifest[cssSource] = { file, src: cssSource, isEntry: true, imports: [], dynamicImports: [] };
manifest[serverSource] = { file: serverBundle, src: serverSource, sha256: digest(readFileSync(serverBundle)) };
writeFileSync(`${dir}/manifest.json.tmp`, JSON.stringify(manifest, null, 2));
renameSync(`${dir}/manifest.json.tmp`, `${dir}/manifest.json`);
