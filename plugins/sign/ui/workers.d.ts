/** A worker's script imported for its URL: the build (`wpk ui build`) makes it a fingerprinted file of its own (docs/ui.md, "budget"). */
declare module '*.worker.min.mjs' {
  const url: string;
  export default url;
}
