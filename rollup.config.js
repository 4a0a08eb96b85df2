// Two builds from one set of islands:
//  - client: one ES module entry per island plus the hydration runtime, React in a shared
//    chunk, hashed names and a Vite-shaped manifest.json that Flask reads;
//  - server: one IIFE exposing globalThis.renderIsland(name, propsJson, islandId) that Flask
//    runs in an embedded V8 (mini-racer), so island markup comes from React itself.
import { readdirSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import commonjs from "@rollup/plugin-commonjs";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import replace from "@rollup/plugin-replace";
import terser from "@rollup/plugin-terser";
import esbuild from "rollup-plugin-esbuild";
import manifest from "./components/build/manifest.js";

const islandsDir = "components/islands";
const islandEntries = Object.fromEntries(
  readdirSync(islandsDir)
    .filter((file) => file.endsWith(".jsx"))
    .map((file) => [basename(file, extname(file)), `${islandsDir}/${file}`]),
);

// "virtual:islands" is every island module by name, for the server bundle.
const virtualIslands = {
  name: "virtual-islands",
  resolveId: (id) => (id === "virtual:islands" ? id : null),
  load(id) {
    if (id !== "virtual:islands") return null;
    const names = Object.keys(islandEntries);
    const imports = names.map((name) => `import ${name} from ${JSON.stringify(resolve(islandEntries[name]))};`);
    return `${imports.join("\n")}\nexport default { ${names.join(", ")} };`;
  },
};

// reduce_funcs off: terser then leaves single-use functions where they are instead of inlining
// them into their callers, which gzips better (React's chunk: 400 bytes smaller). The one
// comment kept is the compile hint below.
const minify = (browser) =>
  terser({
    ecma: 2020,
    module: browser,
    compress: { passes: 2, reduce_funcs: false },
    format: { comments: /^# allFunctionsCalledOnLoad$/ },
  });

// React's chunk is imported only to hydrate, which calls most of it at once, so it starts with
// V8's compile hint: Chrome then compiles all its functions while the file streams in, off the
// main thread, instead of one by one on the main thread as React first calls them. Traced on /
// here, the lazy compiling inside the header's hydration went from 11-15 ms to about 1 ms of
// main thread: after the first paint, a task over 12.5 ms is a long task to Lighthouse, whose
// 4x CPU slowdown makes it 50 ms.
const compileHint = (chunk) => (chunk.name === "react" ? "//# allFunctionsCalledOnLoad" : "");

const plugins = (browser) => [
  replace({ preventAssignment: true, values: { "process.env.NODE_ENV": '"production"' } }),
  nodeResolve({ browser, extensions: [".js", ".jsx"] }),
  commonjs(),
  esbuild({ jsx: "automatic", target: "es2020", loaders: { ".js": "jsx" } }),
  minify(browser),
];

// Every page loads the runtime, and every island draws with React, so the small modules that
// several islands share (the icons, the hook adopting open <details>) travel inside React's
// file rather than as files of their own (each file costs a request and its own gzip
// overhead); so does the hydrator (runtime/island.js), needed exactly when React is and not
// before the load event, as the runtime is. The sell form imports the keys of what the visit's
// arrival left in storage from the runtime module the page has already run (runtime/arrival.js).
const withReact = /\/components\/(shared\/icons\.jsx|hooks\/useAdoptOpen\.js|runtime\/island\.js)$/;

function chunkFor(id) {
  if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return "react";
  if (withReact.test(id)) return "react";
  if (/\/components\/runtime\/(hydrate|arrival)\.js$/.test(id)) return "runtime";
  return undefined;
}

export default [
  {
    input: { runtime: "components/runtime/hydrate.js", ...islandEntries },
    // lets the runtime's file also export the UTM helpers, instead of a facade file in front
    preserveEntrySignatures: "allow-extension",
    output: {
      dir: "app/static/build",
      format: "es",
      entryFileNames: "[name]-[hash].js",
      chunkFileNames: "[name]-[hash].js",
      banner: compileHint,
      manualChunks: chunkFor,
    },
    plugins: [...plugins(true), manifest()],
  },
  {
    input: "components/server.js",
    output: { file: "app/build/ssr.js", format: "iife", inlineDynamicImports: true },
    plugins: [virtualIslands, ...plugins(false)],
  },
];
