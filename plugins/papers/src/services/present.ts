import { memberMrn, presentCommentFields } from '@wpk/sdk';
import type { Comment, Folder, Link, Paper, Share, Suggestion, Version } from '../models/index.js';
import type { Level } from './access.js';

const iso = (value: Date | null | undefined) => (value ? new Date(value).toISOString() : null);

export function presentFolder(folder: Folder) {
  return { id: folder.id, name: folder.name, parent_id: folder.parent_id, owner_id: folder.owner_id, created_at: iso(folder.created_at), updated_at: iso(folder.updated_at) };
}

export function presentPaper(paper: Paper, level: Level) {
  return {
    id: paper.id,
    title: paper.title,
    folder_id: paper.folder_id,
    owner_id: paper.owner_id,
    owner_mrn: memberMrn(paper.owner_id),
    status: paper.status,
    template: paper.is_template,
    level,
    trashed_at: iso(paper.trashed_at),
    edited_at: iso(paper.edited_at),
    edited_by: paper.edited_by,
    created_at: iso(paper.created_at),
    updated_at: iso(paper.updated_at),
  };
}

export function presentShare(share: Share) {
  return { principal_type: share.principal_type, principal_id: share.principal_id, level: share.level };
}

export function presentLink(link: Link) {
  return { id: link.id, paper_id: link.paper_id, level: link.level, anonymous: link.anonymous, expires_at: iso(link.expires_at), created_by: link.created_by, created_at: iso(link.created_at) };
}

export function presentComment(comment: Comment) {
  return { id: comment.id, paper_id: comment.paper_id, ...presentCommentFields(comment) };
}

export function presentVersion(version: Version, withContent = false) {
  return {
    id: version.id,
    paper_id: version.paper_id,
    kind: version.kind,
    name: version.name,
    created_by: version.created_by,
    created_at: iso(version.created_at),
    ...(withContent ? { content: version.content, text: version.text } : {}),
  };
}

export function presentSuggestion(suggestion: Suggestion) {
  return {
    id: suggestion.id,
    paper_id: suggestion.paper_id,
    update: Buffer.from(suggestion.data).toString('base64'),
    note: suggestion.note,
    text: suggestion.text,
    status: suggestion.status,
    author_id: suggestion.author_id,
    author_mrn: memberMrn(suggestion.author_id),
    decided_by: suggestion.decided_by,
    decided_at: iso(suggestion.decided_at),
    created_at: iso(suggestion.created_at),
  };
}
