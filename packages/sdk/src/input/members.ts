/**
 * Member references in request input. A route that stores a reference to a person (an assignee,
 * a participant, an evaluator) declares the field with `Joi.memberId()` or `Joi.memberMrn()`; the
 * platform then checks, after validation and before the handler, that every value names a member
 * of the request's workspace, and refuses the request with 400 naming the field otherwise (a
 * random UUID, a member of another workspace, a member who was removed). Nothing an app writes can
 * point at someone outside its workspace, and no app has to remember to check.
 */

/** Who a member reference may name. */
export type MemberReferenceRule = 'active' | 'former';

/** One member-reference field of a schema: where it sits and what it accepts. */
export interface MemberReferenceField {
  /** Dotted path from the schema's root; `[]` stands for every item of an array (`assignees.[]`). */
  path: string;
  /** `mrn` when the value is `mrn:account:member:{id}`, `id` when it is the bare member id. */
  form: 'id' | 'mrn';
  /**
   * `active`: a member of the workspace now. `former`: also one who was removed (an offboarding
   * transfer names the person who left).
   */
  rule: MemberReferenceRule;
}

/** The joi `meta` key that marks a member reference (read by `memberReferenceFields`). */
export const MEMBER_REFERENCE_META = 'wpk.member';

interface Description {
  type?: string;
  metas?: Array<Record<string, unknown>>;
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: Array<{ schema?: Description; then?: Description; otherwise?: Description }>;
}

/**
 * Every member-reference field of a joi schema, from its `describe()` output: object keys are
 * followed, array items become `[]`, alternatives are all followed. An empty list when none.
 */
export function memberReferenceFields(description: unknown, prefix = ''): MemberReferenceField[] {
  const found: MemberReferenceField[] = [];
  const walk = (node: Description | undefined, path: string) => {
    if (!node || typeof node !== 'object') return;
    for (const meta of node.metas ?? []) {
      const mark = meta[MEMBER_REFERENCE_META] as { form?: 'id' | 'mrn'; rule?: MemberReferenceRule } | undefined;
      if (mark && (mark.form === 'id' || mark.form === 'mrn')) found.push({ path, form: mark.form, rule: mark.rule === 'former' ? 'former' : 'active' });
    }
    for (const [key, child] of Object.entries(node.keys ?? {})) walk(child, path ? `${path}.${key}` : key);
    for (const item of node.items ?? []) walk(item, path ? `${path}.[]` : '[]');
    for (const match of node.matches ?? []) {
      walk(match.schema, path);
      walk(match.then, path);
      walk(match.otherwise, path);
    }
  };
  walk(description as Description, prefix);
  return found;
}

/**
 * The values at one field's path in validated input (`a.[].b` collects `b` of every item of
 * `a`); only strings are returned, an absent or null value yields nothing.
 */
export function valuesAt(input: unknown, path: string): string[] {
  let current: unknown[] = [input];
  for (const part of path ? path.split('.') : []) {
    const next: unknown[] = [];
    for (const value of current) {
      if (part === '[]') {
        if (Array.isArray(value)) next.push(...value);
      } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, part)) {
        next.push((value as Record<string, unknown>)[part]);
      }
    }
    current = next;
  }
  return current.filter((value): value is string => typeof value === 'string');
}

/** How a field is named in a 400 message: `assignees.[]` → `assignees`, `panel.[].member_mrn` → `panel[].member_mrn`. */
export function fieldLabel(path: string): string {
  return path.replace(/\.\[\]$/, '').replace(/\.\[\]/g, '[]');
}
