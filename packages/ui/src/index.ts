/**
 * @wpk/ui: the UI kit of the Workspace Platform Kit (docs/ui.md). An app's `ui/main.ts`:
 *
 * ```ts
 * import { startApp, onRoute } from '@wpk/ui';
 * const { client } = await startApp();
 * ```
 */
export { startApp, kit, errorText, localeOf, bridgeTransport, runForm, saveDownload, type AppKit, type FormState } from './app.js';
export { Bridge, connectBridge } from './bridge/client.js';
export { BRIDGE_PROTOCOL, isAppPath, type BridgeInit, type BridgeMember, type BridgeRequests, type DevicePosition, type PickedMember, type SearchHit } from './bridge/protocol.js';
export { formatDate, formatMoney, formatBytes, type DateStyle } from './format.js';
export { memberColor, memberIdOf, memberMrn, memberNames, memberNamesById } from './members.js';
export { LiveConnection, type LiveEvent, type ChannelListener } from './live.js';
export { matchRoute, routeQuery, onRoute, navigate, toast, confirmAction, appHref, appLink, sectionOf, type RouteParams } from './router.js';
export { AppRoot, listScreen, mountApp, recordScreens, type AppScreen, type AppSection } from './app-root.js';
export { WpkDataTable, type TableColumn, type RowAction, type TableSource } from './components/data-table.js';
export { BoardMoves, type BoardColumnDrop } from './components/board-moves.js';
export { WpkSchemaForm, choiceField, sendSchemaForm, type FormSchema, type FieldSchema } from './components/schema-form.js';
export { fieldOfError, formFieldOf } from './form-errors.js';
export { RecordDetail, RecordEdit, type RecordKind, type RecordNames } from './components/record-screens.js';
export { filledValues, textChanges, textValues } from './form-values.js';
export { ListScreen, type ListNewLink, type ListTable } from './components/list-screen.js';
export { WpkConfirmDialog, type ConfirmOptions } from './components/confirm-dialog.js';
export { WpkToaster } from './components/toaster.js';
export { WpkMemberPicker, WpkFilePicker, WpkMrnChip } from './components/pickers.js';
export { WpkDate, WpkMoney } from './components/formatted.js';
export { WpkUpload, sendFile, signedUploadTarget, uploadFileBody, type UploadTarget } from './components/upload.js';
export { WpkLiveList, liveConnection } from './components/live-list.js';
export { cardStyles, screenStyles, sharedStyles } from './components/shared-styles.js';
export { html, css, svg, nothing, LitElement, type TemplateResult, type SVGTemplateResult } from 'lit';
// Keyed lists: a list whose items move keeps each item's element (and its focus) with the item.
export { repeat } from 'lit/directives/repeat.js';
export { ApiError, isApiError, asCollection, asSingle, type Client, type Collection, type Single, type components, type operations } from '@wpk/client/browser';
