/** The files of a new self-host project (`wpk new project`): config naming apps, package.json, README. */

export interface ProjectTemplateInput {
  name: string;
  /** Version range of the @wpk packages. */
  wpkVersion: string;
  /**
   * A project made from a bundle (`--bundle`): the `file:` specs of @wpk/cli, @wpk/core and @wpk/sdk
   * (and @wpk/testing, for apps' tests) in the project's bundle folder. npm takes every @wpk
   * dependency of the tarballs and of apps/* from these, never from a registry.
   */
  bundle?: { dependencies: Record<string, string>; devDependencies: Record<string, string> };
}

/** Every file of the project, by path relative to its directory. */
export function projectTemplate({ name, wpkVersion, bundle }: ProjectTemplateInput): Record<string, string> {
  return {
    'wpk.config.json': `${JSON.stringify({ apps: [] }, null, 2)}\n`,
    'package.json': `${JSON.stringify(
      {
        name,
        version: '0.1.0',
        private: true,
        type: 'module',
        description: 'A self-hosted Workspace Platform Kit.',
        // Apps made with `wpk new app` live in apps/ as workspace packages: one install, one copy of @wpk/sdk.
        workspaces: ['apps/*'],
        dependencies: bundle?.dependencies ?? { '@wpk/cli': wpkVersion },
        ...(bundle && Object.keys(bundle.devDependencies).length > 0 ? { devDependencies: bundle.devDependencies } : {}),
        scripts: { start: 'wpk start', dev: 'wpk dev', migrate: 'wpk migrate', validate: 'wpk validate .' },
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules/\n.wpk/\n.env\n',
    'apps/.gitkeep': '',
    'README.md': `# ${name}

A self-hosted Workspace Platform Kit, scaffolded by \`wpk new project\`.

\`wpk.config.json\` names the apps the server loads:

\`\`\`json
{
  "apps": [
    "@wpk/app-tasks",
    { "dir": "./apps/hello" },
    { "manifest": "./remote/app.json", "address": "https://hello.example.com" }
  ]
}
\`\`\`

A string is an installed package (\`@wpk/*\` packages are first-party) or a directory (\`./...\`);
\`{ "dir": ... }\` is a local app; \`{ "manifest", "address" }\` is a remote app that receives its
event deliveries at \`address\`. Add \`"firstParty": true\` to an entry only for apps you trust
as your own: first-party apps may emit \`core.*\` events.

${
      bundle
        ? `The @wpk packages come from the tarballs in \`wpk-packages/\` (a bundle made by \`pnpm release\`), not from a
registry: keep that folder with the project. \`wpk add app @wpk/app-tasks\` installs the app from there;
\`wpk add app path/to/another.tgz\` copies a tarball in first.

`
        : ''
    }\`\`\`sh
npm install
npx wpk add app @wpk/app-tasks                            # installs it and adds it to wpk.config.json
npx wpk new app hello --publisher acme --dir apps/hello   # then add "./apps/hello" above
npm install && npm test -w apps/hello                     # apps/* are workspace packages
npx wpk validate .                                        # every app's manifest against its code
npx wpk dev                                               # embedded database, demo workspace (foreground)
npx wpk remove app @wpk/app-tasks                         # out of wpk.config.json; its data stays until --purge
\`\`\`

Production: set \`DATABASE_URL\` (PostgreSQL), \`BASE_DOMAIN\` (workspaces are served on
\`{subdomain}.{BASE_DOMAIN}\`), \`PORT\`, then \`npx wpk migrate\`, create the first workspace with its owner
(\`npx wpk workspace create --subdomain acme --name Acme --owner-email ... --owner-password ...\`, which
prints the owner's API key) and \`npx wpk start\`. Set
\`WPK_STRICT_APP_ROLES=1\` (or \`"strictAppRoles": true\` here) to run each app under its own
database role, with rights on its own schema only.
`,
  };
}
