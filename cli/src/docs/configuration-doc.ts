import { CONFIG_GROUPS, CONFIG_VARIABLES, PROJECT_CONFIG_FIELDS } from '@wpk/core';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * docs/configuration.md: every environment variable and every wpk.config field, generated from
 * core's config-reference.ts (a test compares the committed file with this;
 * `npx tsx cli/scripts/configuration-doc.ts` rewrites it).
 */
export function configurationMarkdown(): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from packages/core/src/config-reference.ts by `npx tsx cli/scripts/configuration-doc.ts`; a test keeps it in step. Do not edit by hand. -->',
    '',
    'A server is configured by **environment variables** (below, by subject) and by its project\'s',
    '**config file**, `wpk.config.json`, which names the apps it loads. Every value is checked when a',
    'process starts: a bad one stops it with one line naming the variable and what it accepts (a',
    'secret\'s value is never echoed). Nothing is read from a request.',
    '',
    'The config file is `wpk.config.json` (or `.ts`, `.mjs`, `.js`) in the working directory, or the',
    'file `wpk --config <file>` or `WPK_CONFIG` names. Relative paths in it, and the default data',
    'directory, resolve against the directory of that file, so a unit file or a container does not',
    'depend on its working directory:',
    '',
    '```sh',
    'WPK_CONFIG=/srv/wpk/wpk.config.json DATABASE_URL=postgres://wpk@127.0.0.1/wpk npx wpk start',
    '```',
    '',
    'Variables marked **secret** hold credentials: keep them in a file only the service can read',
    '(docs/self-hosting.md, "Environment"), never in the config file or version control.',
    '',
    '## `wpk.config.json`',
    '',
    '| field | type | meaning |',
    '| --- | --- | --- |',
    ...PROJECT_CONFIG_FIELDS.map((field) => `| \`${field.name}\` | ${field.type} | ${cell(field.description)} |`),
    '',
    'Any other field is refused at start-up, naming the file and the field.',
  ];
  for (const group of CONFIG_GROUPS) {
    const variables = CONFIG_VARIABLES.filter((variable) => variable.group === group);
    if (variables.length === 0) continue;
    lines.push('', `## ${group}`, '', '| variable | default | meaning |', '| --- | --- | --- |');
    for (const variable of variables) {
      const notes = [variable.secret ? '**Secret.**' : '', variable.readBy ? `Read by ${variable.readBy}.` : ''].filter(Boolean).join(' ');
      lines.push(`| \`${variable.name}\` | ${cell(variable.default)} | ${cell(variable.description)}${notes ? ` ${notes}` : ''} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
