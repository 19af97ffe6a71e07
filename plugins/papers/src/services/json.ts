import { InvalidError, type RichTextNode } from '@wpk/sdk';

/** Checks that a value is ProseMirror JSON of a `doc` (the shape; the node and mark types are the document's check), naming the first bad path. */
export function checkRichText(value: unknown, field: string): RichTextNode {
  let count = 0;
  const walk = (node: unknown, path: string, depth: number) => {
    count += 1;
    if (count > 100_000) throw new InvalidError(`${field}: at most 100000 nodes`);
    if (depth > 50) throw new InvalidError(`${path}: nested more than 50 deep`);
    if (!node || typeof node !== 'object' || Array.isArray(node)) throw new InvalidError(`${path}: must be a node (an object with a type)`);
    const { type, attrs, content, text, marks } = node as Record<string, unknown>;
    if (typeof type !== 'string' || type.length === 0 || type.length > 60) throw new InvalidError(`${path}.type: must be a node type name`);
    if (attrs !== undefined && (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs))) throw new InvalidError(`${path}.attrs: must be an object`);
    if (type === 'text') {
      if (typeof text !== 'string' || text.length === 0) throw new InvalidError(`${path}.text: a text node holds a non-empty string`);
      if (marks !== undefined) {
        if (!Array.isArray(marks)) throw new InvalidError(`${path}.marks: must be an array`);
        marks.forEach((mark, index) => {
          if (!mark || typeof mark !== 'object' || typeof (mark as { type?: unknown }).type !== 'string') throw new InvalidError(`${path}.marks[${index}]: must be a mark (an object with a type)`);
        });
      }
    } else if (text !== undefined || marks !== undefined) throw new InvalidError(`${path}: only text nodes have text and marks`);
    if (content !== undefined) {
      if (!Array.isArray(content)) throw new InvalidError(`${path}.content: must be an array of nodes`);
      content.forEach((child, index) => walk(child, `${path}.content[${index}]`, depth + 1));
    }
  };
  walk(value, field, 0);
  if ((value as RichTextNode).type !== 'doc') throw new InvalidError(`${field}.type: must be doc`);
  return value as RichTextNode;
}
