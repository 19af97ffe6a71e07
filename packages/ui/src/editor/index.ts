/** `@wpk/ui/editor`: the collaborative rich text editor (tiptap + Yjs), kept out of the kit's main entry so only the apps that edit text carry it. */
export { WpkCollabEditor, type CollabTransport, type CollabUser } from './collab-editor.js';
