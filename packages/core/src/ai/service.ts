import type { Request } from '@hapi/hapi';
import { AccessDenied, APP_ACCESS_DENIED } from '../access/index.js';
import { appSearchAccess, type AppRegistry, type InstallationService } from '../apps/index.js';
import { permittedTypes, searchReaderOf, type SearchIndex } from '../search/index.js';
import type { Sequelize } from 'sequelize';
import { ChatModelError, type ChatMessage, type ChatModel } from './chat-model.js';
import { retrieve } from './retrieval.js';

/** A record an answer rests on, as the search endpoint shows it. */
export interface AnswerRecord {
  type: string;
  id: string;
  title: string;
  subtitle: string;
  url: string;
}

/** The answer to `POST /ai/commands`. */
export interface AiAnswer {
  app: string;
  q: string;
  answer: string;
  /** The model that wrote the answer, or null for the listing of matching records. */
  model: string | null;
  records: AnswerRecord[];
}

/** Thrown when the configured model fails: answered 503. */
export { ChatModelError };

/** The system prompt: the app, the rule, and the records (and nothing else of the workspace). */
export function promptOf(appName: string, records: readonly AnswerRecord[], typeLabels: ReadonlyMap<string, string>): string {
  const lines = records.map((record) => `- ${typeLabels.get(record.type) ?? record.type}${record.id ? ` ${record.id}` : ''}: ${record.title}${record.subtitle ? ` (${record.subtitle})` : ''} <${record.url}>`);
  return [
    `You answer a workspace member's question about the ${appName} app.`,
    'Use only the records listed below; they are everything the member may read that matches the question. Link a record by its path in angle brackets.',
    'If the records do not answer the question, say so plainly.',
    '',
    'Records:',
    ...(lines.length > 0 ? lines : ['(none)']),
  ].join('\n');
}

/** The answer without a model: the matching records, each with its link. */
export function listingOf(appName: string, q: string, records: readonly AnswerRecord[], typeLabels: ReadonlyMap<string, string>): string {
  if (records.length === 0) return `Nothing in ${appName} matches "${q}".`;
  const head = `${records.length} record${records.length === 1 ? '' : 's'} in ${appName} match${records.length === 1 ? 'es' : ''} "${q}":`;
  return [head, ...records.map((record) => `- ${typeLabels.get(record.type) ?? record.type}${record.id ? ` ${record.id}` : ''}: ${record.title} (${record.url})`)].join('\n');
}

/**
 * `POST /ai/commands`: a question about one app, answered from the records of that app the
 * caller may read. The app must be open to the caller (else the layer-4 refusal); only the
 * searchable types whose keys the caller holds are searched, and a record with readers only when
 * the caller is one of them (as search), so nothing else can reach the model.
 */
export class AiCommandService {
  private readonly access;

  constructor(
    private readonly parts: { registry: AppRegistry; installations: InstallationService; sequelize: Sequelize; index: SearchIndex; model: ChatModel | null },
  ) {
    this.access = appSearchAccess(parts.registry, parts.installations, parts.sequelize);
  }

  async answer(request: Request, app: string, q: string): Promise<AiAnswer> {
    if (!(await this.access.canOpenApp(request, app))) throw new AccessDenied(4, APP_ACCESS_DENIED, 'an AI command about an app the caller cannot open', null, app);
    const loaded = this.parts.registry.get(app)!;
    const declared = await this.access.searchableTypes(app);
    const types = permittedTypes(app, declared, await this.access.heldKeys(request, app));
    const typeLabels = new Map(declared.map((type) => [type.type, type.label]));
    const hits = await retrieve(this.parts.index, request.app.workspace!.id, app, types.map((type) => type.type), q, searchReaderOf(request));
    const records = hits.map((hit) => ({ type: hit.type, id: hit.id, title: hit.title, subtitle: hit.subtitle, url: hit.url }));
    const appName = loaded.manifest.name;
    const model = this.parts.model;
    if (!model) return { app, q, answer: listingOf(appName, q, records, typeLabels), model: null, records };
    const messages: ChatMessage[] = [
      { role: 'system', content: promptOf(appName, records, typeLabels) },
      { role: 'user', content: q },
    ];
    return { app, q, answer: await model.complete(messages), model: model.name, records };
  }
}
