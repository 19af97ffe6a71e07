/** `@wpk/ui/editor`: the kit's rich text editors (tiptap), kept out of the kit's main entry so only the apps that edit text carry them. */
export { WpkCollabEditor, type CollabImages, type CollabTransport, type CollabUser, type CommentAnchorDraft } from './collab-editor.js';
export { WpkRichTextEditor } from './rich-text-editor.js';
export { MentionSuggestions, type FindMembers, type MentionedMember } from './mention-suggest.js';
export { checkboxLabel, ChecklistItem, ImageBlock, insertMention, Mention, richTextExtensions, type ImageSource } from './extensions.js';
export { WpkCommentThreads, type CommentThreadsApi, type ThreadComment } from './comment-threads.js';
export { RECORD_MRN, RecordChip, recordsThroughShell, type RecordLookup } from './record-chips.js';
export { describeSuggestion, suggestedChanges, suggestedChangesExtension, type SuggestedChange } from './suggested-changes.js';
