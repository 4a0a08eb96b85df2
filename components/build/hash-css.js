// Gives the Tailwind build a content-hashed name and records it in manifest.json,
// so the CSS gets the same immutable caching as the scripts.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";

const dir = "app/static/build";
const source = "components/styles/site.css";
const css = readFileSync(`${dir}/site.css`);
const hash = createHash("sha256").update(css).digest("base64url").slice(0, 8);
const file = `site-${hash}.css`;
for (const old of readdirSync(dir)) {
  if (/^site-.+\.css$/.test(old) && old !== file) unlinkSync(`${dir}/${old}`);
}
renameSync(`${dir}/site.css`, `${dir}/${file}`);
const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, "utf8"));
manifest[source] = { file, src: source, isEntry: true, imports: [], dynamicImports: [] };
writeFileSync(`${dir}/manifest.json`, JSON.stringify(manifest, null, 2));
