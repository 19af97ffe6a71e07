import { memberMrn } from '@wpk/sdk';
import type { Item, Share, Version } from '../models/index.js';
import { categoryOf } from './categories.js';
import { bytes } from './sizes.js';

/** An item as every route answers it. */
export function presentItem(item: Item, extra: Record<string, unknown> = {}) {
  return {
    id: item.id,
    kind: item.kind,
    name: item.name,
    parent_id: item.parent_id,
    owner_id: item.owner_id,
    owner_mrn: memberMrn(item.owner_id),
    size_bytes: bytes(item.size_bytes),
    content_type: item.kind === 'file' ? item.content_type : null,
    type: item.kind === 'file' ? categoryOf(item.content_type) : 'folder',
    version_id: item.version_id,
    version_number: item.kind === 'file' ? item.version_number : null,
    trashed: item.trashed_at !== null,
    trashed_at: item.trashed_at,
    created_by: item.created_by,
    updated_by: item.updated_by,
    created_at: item.created_at,
    updated_at: item.updated_at,
    ...extra,
  };
}

export function presentVersion(version: Version, currentId: string | null) {
  return {
    id: version.id,
    file_id: version.item_id,
    number: version.number,
    size_bytes: bytes(version.size_bytes),
    content_type: version.content_type,
    sha256: version.sha256,
    current: version.id === currentId,
    created_by: version.created_by,
    created_at: version.created_at,
  };
}

export function presentShare(share: Share) {
  return { file_id: share.item_id, member_id: share.member_id, member_mrn: memberMrn(share.member_id), role: share.role, shared_by: share.shared_by, created_at: share.created_at, updated_at: share.updated_at };
}
