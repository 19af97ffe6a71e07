import { subscription, type AttendanceBaseContext } from '../kit.js';
import { keepSettingsLocation, type SettingsLocationPayload } from '../services/locations.js';

type LocationAction = 'core.settings.location.created' | 'core.settings.location.updated' | 'core.settings.location.deleted' | 'core.settings.location.announced';

/** `core.settings.location.*`: the app's locations follow Settings' (the geofence stays the app's; a deletion is a tombstone; an announcement, after an install, brings what the copy missed). */
const onLocation = (action: LocationAction) =>
  subscription(action, (event, ctx: AttendanceBaseContext) => keepSettingsLocation(ctx, event.payload as unknown as SettingsLocationPayload, action === 'core.settings.location.deleted'));

export const subscriptions = {
  'core.settings.location.created': onLocation('core.settings.location.created'),
  'core.settings.location.updated': onLocation('core.settings.location.updated'),
  'core.settings.location.deleted': onLocation('core.settings.location.deleted'),
  'core.settings.location.announced': onLocation('core.settings.location.announced'),
};
