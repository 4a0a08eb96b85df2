// Writes a Vite-shaped manifest.json: one record per chunk keyed by its source path (entries)
// or "_<file>" (shared chunks), with the file name and the keys of the chunks it imports.
import { relative } from "node:path";

export default function manifest() {
  return {
    name: "vite-shaped-manifest",
    generateBundle(_options, bundle) {
      const keyOf = (chunk) =>
        chunk.facadeModuleId ? relative(process.cwd(), chunk.facadeModuleId) : `_${chunk.fileName}`;
      const chunks = Object.values(bundle).filter((item) => item.type === "chunk");
      const byFile = Object.fromEntries(chunks.map((chunk) => [chunk.fileName, keyOf(chunk)]));
      const records = {};
      for (const chunk of chunks) {
        records[keyOf(chunk)] = {
          file: chunk.fileName,
          name: chunk.name,
          ...(chunk.facadeModuleId ? { src: keyOf(chunk) } : {}),
          ...(chunk.isEntry ? { isEntry: true } : {}),
          imports: chunk.imports.map((file) => byFile[file]),
          dynamicImports: [...new Set(chunk.dynamicImports.map((file) => byFile[file]))],
        };
      }
      this.emitFile({
        type: "asset",
        fileName: "manifest.json",
        source: JSON.stringify(records, null, 2),
      });
    },
  };
}
