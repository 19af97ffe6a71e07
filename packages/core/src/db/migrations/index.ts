import type { Migration, MigrationSet } from '../migrations.js';
import { migration as platformBase } from './0001-platform-base.js';
import { migration as identity } from './0100-identity.js';
import { migration as throttleCounters } from './0101-throttle-counters.js';
import { migration as apps } from './0200-apps.js';
import { migration as events } from './0300-events.js';
import { migration as search } from './0400-search.js';
import { migration as searchReaders } from './0700-search-readers.js';
import { migration as apiKeys } from './0500-api-keys.js';
import { migration as storage } from './0550-storage.js';
import { migration as distributionKeys } from './0600-distribution-keys.js';
import { migration as notifications } from './0710-notifications.js';
import { migration as billing } from './0800-billing.js';
import { migration as messages } from './0810-messages.js';
import { migration as operators } from './0820-operators.js';
import { migration as live } from './0830-live.js';
import { migration as mailOutbox } from './0840-mail-outbox.js';
import { migration as billingCollection } from './0850-billing-collection.js';
import { migration as demoRequests } from './0860-demo-requests.js';
import { migration as notificationEvents } from './0870-notification-events.js';
import { migration as livePresenceSeen } from './0880-live-presence-seen.js';
import { migration as searchWordStatistics } from './0890-search-word-statistics.js';
import { migration as nameClaims } from './0900-name-claims.js';
import { migration as pushDeviceTokenHash } from './0910-push-device-token-hash.js';
import { migration as meteredUsage } from './0920-metered-usage.js';
import { migration as notificationLinks } from './0930-notification-links.js';

/**
 * Core's own migrations, schema `platform`, in the order they run. Each concern keeps its
 * migration files in this folder under its own number range (0001-0099 base and tenancy,
 * 0100 identity, 0200 apps, 0300 events, 0400 search, 0500 API keys and access, 0550 storage,
 * 0600 keys for distribution by workspace, 0700 search readers, 0710 notifications, 0800 billing,
 * 0810 messages, 0820 operators, 0830 live updates, 0840 the apps' mail outbox, 0850 billing
 * collection, 0860 demo requests, 0870 notifications' source events, 0880 presence heartbeats, 0890 search word statistics, 0900 the apps' name claims, 0910 phone tokens unique by hash, 0920 metered usage, 0930 stored notifications' links) and appends
 * here. Never reorder or edit a migration that has landed: add a new one.
 */
const migrations: Migration[] = [platformBase, identity, apps, events, search, apiKeys, throttleCounters, storage, distributionKeys, searchReaders, notifications, billing, messages, operators, live, mailOutbox, billingCollection, demoRequests, notificationEvents, livePresenceSeen, searchWordStatistics, nameClaims, pushDeviceTokenHash, meteredUsage, notificationLinks];

export const platformMigrations: MigrationSet = { schema: 'platform', migrations };
