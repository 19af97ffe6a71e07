import { InvalidError } from '@wpk/sdk';

/** Whether this runtime knows each time zone asked about so far. */
const zones = new Map<string, boolean>();

function zoneKnown(zone: string): boolean {
  try {
    return Boolean(new Intl.DateTimeFormat('en-US', { timeZone: zone }));
  } catch {
    return false;
  }
}

/** The time zone as given, or 400 naming `field` when it is no IANA time zone this runtime knows. */
export function timeZone(zone: string, field: string): string {
  let known = zones.get(zone);
  if (known === undefined) zones.set(zone, (known = zoneKnown(zone)));
  if (!known) throw new InvalidError(`${field}: ${zone} is not an IANA time zone (such as Europe/Paris or UTC)`, { field });
  return zone;
}

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 currency code in upper case, or 400 naming `field`. */
export function currency(code: string, field: string): string {
  const upper = code.toUpperCase();
  if (!currencies.has(upper)) throw new InvalidError(`${field}: ${code} is not an ISO 4217 currency code (such as EUR or USD)`, { field });
  return upper;
}

/** A BCP 47 language tag in its canonical form (`en-gb` → `en-GB`), or 400 naming `field`. */
export function languageTag(tag: string, field: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical) return canonical;
  } catch {
    // RangeError: not a well-formed tag; answered below.
  }
  throw new InvalidError(`${field}: ${tag} is not a BCP 47 language tag (such as en-GB or fr)`, { field });
}
