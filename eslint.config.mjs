// Lint rules for the whole monorepo.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The app boundary: code under plugins/<app>/ and examples/<app>/ may import @wpk/sdk, npm
 * packages and its own files. It may never import @wpk/core (or any other @wpk package), and
 * never reach into another app's folder with a relative path. Test files (under test/, or named
 * *.test.ts) may also import @wpk/testing, the harness that boots the runtime for an app's tests.
 * The app's front-end (under ui/, run in the browser) imports @wpk/ui, never the server's SDK.
 */
const appBoundaryRule = {
  meta: { type: 'problem', schema: [], messages: { core: '{{name}}: apps reach the platform through @wpk/sdk only (tests also through @wpk/testing, the front-end in ui/ through @wpk/ui only)', escape: '{{name}}: an app imports only its own files (this leaves {{root}})' } },
  create(context) {
    const file = context.filename;
    const match = /^(.*?[\\/](?:plugins|examples)[\\/][^\\/]+)[\\/]/.exec(file);
    if (!match) return {};
    const root = match[1];
    const isTest = /[\\/]test[\\/]/.test(file.slice(root.length)) || /\.test\.[cm]?[jt]s$/.test(file);
    const isUi = /^[\\/]ui[\\/]/.test(file.slice(root.length));
    const allowed = isTest ? /^@wpk\/(sdk|testing)(\/.*)?$/ : isUi ? /^@wpk\/ui(\/.*)?$/ : /^@wpk\/sdk(\/.*)?$/;
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (/^@wpk\//.test(source) && !allowed.test(source)) {
        context.report({ node, messageId: 'core', data: { name: source } });
      } else if (source.startsWith('.')) {
        const target = path.resolve(path.dirname(file), source);
        if (target !== root && !target.startsWith(root + path.sep)) {
          context.report({ node, messageId: 'escape', data: { name: source, root: path.basename(root) } });
        }
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/**
 * The core boundary: inside packages/core/src, a folder (access/, events/, identity/, ...) is
 * reached from outside only through its index.ts. A file may import its own folder's files
 * freely, and the files at the root of src/ (config.ts, logger.ts); anything else under
 * src/<folder>/ must come from src/<folder>/index.js. The one other door is a folder's
 * plugin.ts (the concern as a hapi plugin), opened only by src/plugins.ts, the list of plugins:
 * no concern imports another's plugin, it reads what that plugin exposes.
 */
const coreBoundaryRule = {
  meta: { type: 'problem', schema: [], messages: { deep: '{{name}}: core folders talk through their index.ts (import {{folder}}/index.js instead)' } },
  create(context) {
    const file = context.filename;
    const match = /^(.*?[\\/]packages[\\/]core[\\/]src)[\\/]/.exec(file);
    if (!match) return {};
    const src = match[1];
    const folderOf = (target) => {
      const relative = path.relative(src, target);
      if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
      const parts = relative.split(path.sep);
      return parts.length > 1 ? parts[0] : null;
    };
    const own = folderOf(file);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      const folder = folderOf(target);
      if (folder === null || folder === own) return;
      if (target === path.join(src, folder, 'index.js') || target === path.join(src, folder, 'index.ts')) return;
      // A type-only import may name the module that declares the type, and any file may read a
      // folder's settings parser (its config.ts, which imports no other folder): neither loads the
      // folder, and going through its index.ts for them closed import cycles
      // (docs/decisions/0188-import-cycles.md).
      const typeOnly = node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type'));
      if (typeOnly && node.type !== 'ImportExpression') return;
      if (target === path.join(src, folder, 'config.js')) return;
      if (file === path.join(src, 'plugins.ts') && target === path.join(src, folder, 'plugin.js')) return;
      context.report({ node, messageId: 'deep', data: { name: source, folder } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.turbo/**', '**/.wpk/**', '**/.scratch*/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { wpk: { rules: { 'app-boundary': appBoundaryRule, 'core-boundary': coreBoundaryRule } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Sources say what they hold: `unknown` and a check, or a named type; an existential type
    // parameter ("some app's models") is the one place for `any`, named once with its reason.
    // Tests may still reach into an answer's body.
    files: ['packages/*/src/**/*.ts', 'cli/src/**/*.ts', 'plugins/*/src/**/*.ts', 'plugins/*/ui/**/*.ts', 'examples/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // Plain JavaScript files are Node scripts.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: Object.fromEntries(['process', 'console', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'fetch'].map((name) => [name, 'readonly'])) },
  },
  {
    // The web's browser scripts run in the page, not in Node.
    files: ['packages/core/web/assets/**/*.js'],
    languageOptions: { globals: Object.fromEntries(['window', 'document', 'history', 'CustomEvent', 'URLSearchParams', 'FormData', 'Element', 'HTMLFormElement', 'URL', 'fetch', 'console'].map((name) => [name, 'readonly'])) },
  },
  {
    files: ['plugins/**/*.{ts,js,mjs}', 'examples/**/*.{ts,js,mjs}'],
    // examples/api-client is an API consumer (it uses @wpk/client), not an app.
    ignores: ['examples/api-client/**'],
    rules: { 'wpk/app-boundary': 'error' },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: { 'wpk/core-boundary': 'error' },
  },
);
