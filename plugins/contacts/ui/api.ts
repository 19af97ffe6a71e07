import { kit, type RecordKind, type components } from '@wpk/ui';

/** A contact as the API answers it. */
export type Contact = components['schemas']['ContactsContact'];
/** One of the member's suggestions. */
export type Suggestion = components['schemas']['ContactsSuggestion'];

/** A comma-separated list as typed in a field: trimmed, empty parts dropped. */
export function splitList(text: unknown): string[] {
  return String(text ?? '')
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Contacts as the record screens need them: the names, and the app's operations on one. */
export const CONTACTS: RecordKind<Contact> = {
  noun: 'contact',
  plural: 'contacts',
  nameOf: (contact) => contact.display_name,
  read: async (id) => (await kit().client.contacts.getContactsByContactId({ params: { contact_id: id } })).data as Contact,
  create: async (body) => (await kit().client.contacts.postContacts({ body: body as never })).data as Contact,
  save: async (contact, body) => (await kit().client.contacts.putContactsByContactId({ params: { contact_id: contact.id }, body: body as never })).data as Contact,
  destroy: async (contact) => {
    await kit().client.contacts.deleteContactsByContactId({ params: { contact_id: contact.id } });
  },
};
