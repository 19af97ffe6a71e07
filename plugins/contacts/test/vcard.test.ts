import test from 'ava';
import { parseVCards, serializeVCard, VCardError, type VCardContact } from '../src/services/vcard.js';

const card = (overrides: Partial<VCardContact>): VCardContact => ({ emails: [], phones: [], addresses: [], tags: [], ...overrides });

test('reads the RFC 6350 example card (section 8): names, organization, title, phones as tel: URIs, address, email', (t) => {
  const text = [
    'BEGIN:VCARD',
    'VERSION:4.0',
    'FN:Simon Perreault',
    'N:Perreault;Simon;;;ing. jr,M.Sc.',
    'BDAY:--0203',
    'ANNIVERSARY:20090808T1430-0500',
    'GENDER:M',
    'LANG;PREF=1:fr',
    'ORG:Viagenie',
    'ADR;TYPE=work:;Suite D2-630;2875 Laurier;',
    ' Quebec;QC;G1V 2M2;Canada',
    'TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102',
    'TEL;VALUE=uri;TYPE="work,cell,voice,video,text":tel:+1-418-262-6501',
    'EMAIL;TYPE=work:simon.perreault@viagenie.ca',
    'GEO;TYPE=work:geo:46.772673,-71.282945',
    'KEY;TYPE=work;VALUE=uri:',
    ' http://www.viagenie.ca/simon.perreault/simon.asc',
    'TZ:-0500',
    'URL;TYPE=home:http://nomis80.org',
    'END:VCARD',
  ].join('\r\n');
  t.deepEqual(parseVCards(text), [
    {
      display_name: 'Simon Perreault',
      family_name: 'Perreault',
      given_name: 'Simon',
      suffix: 'ing. jr M.Sc.',
      organization: 'Viagenie',
      emails: [{ value: 'simon.perreault@viagenie.ca', type: 'work' }],
      phones: [
        { value: '+1-418-656-9254;ext=102', type: 'work' },
        { value: '+1-418-262-6501', type: 'mobile' },
      ],
      addresses: [{ type: 'work', street: '2875 Laurier\nSuite D2-630', city: 'Quebec', region: 'QC', postal_code: 'G1V 2M2', country: 'Canada' }],
      tags: [],
    },
  ]);
});

test('reads vCard 3.0 as phones export it: bare TYPE parameters, grouped properties, escapes, LF line ends, several cards', (t) => {
  const text = 'BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;Dr.;\nFN:Dr. Jane Doe\nitem1.EMAIL;TYPE=INTERNET;TYPE=HOME:jane@example.org\nTEL;CELL:+44 20 7946 0958\nNOTE:Met at the fair\\, stand 4\\nCall back\\; soon\nCATEGORIES:Clients,VIP\nBDAY:1985-04-12\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Bob\nEND:VCARD\n';
  t.deepEqual(parseVCards(text), [
    card({ display_name: 'Dr. Jane Doe', family_name: 'Doe', given_name: 'Jane', prefix: 'Dr.', emails: [{ value: 'jane@example.org', type: 'home' }], phones: [{ value: '+44 20 7946 0958', type: 'mobile' }], notes: 'Met at the fair, stand 4\nCall back; soon', tags: ['Clients', 'VIP'], birthday: '1985-04-12' }),
    card({ display_name: 'Bob' }),
  ]);
});

test('refuses what is no vCard, naming the line or the card', (t) => {
  const problem = (text: string) => t.throws(() => parseVCards(text), { instanceOf: VCardError })?.message;
  t.is(problem('hello'), 'line 1 is not a vCard content line');
  t.is(problem('FN:Alone'), 'line 1 is outside BEGIN:VCARD ... END:VCARD');
  t.is(problem('BEGIN:VCARD\nVERSION:4.0\nFN:Open'), 'card 1 (line 1) is not closed by END:VCARD');
  t.is(problem('BEGIN:VCARD\nFN:No version\nEND:VCARD'), 'card 1 (line 1) has no VERSION');
  t.is(problem('BEGIN:VCARD\nVERSION:2.1\nFN:Old\nEND:VCARD'), 'card 1 (line 1) has VERSION 2.1; 4.0 and 3.0 are read');
  t.is(problem('BEGIN:VCARD\nVERSION:4.0\nBEGIN:VCARD\n'), 'line 3: BEGIN:VCARD inside the card begun at line 1');
  t.is(problem('END:VCARD'), 'line 1: END:VCARD without BEGIN:VCARD');
  t.deepEqual(parseVCards(''), []);
});

test('writes 4.0 with CRLF, escaped text, folded lines of at most 75 octets (never inside a character), and reads it back unchanged', (t) => {
  const contact = card({
    uid: 'urn:uuid:0b6f1f0e-0000-4000-8000-000000000001',
    display_name: 'Zoë Ångström, PhD',
    given_name: 'Zoë',
    family_name: 'Ångström',
    suffix: 'PhD',
    nickname: 'Zo',
    organization: 'Ünicode; Inc.',
    job_title: 'Head of ' + 'Ω'.repeat(60),
    birthday: '1990-01-31',
    notes: 'Line one\nLine two, with a comma; and a semicolon \\ backslash',
    emails: [{ value: 'zoe@example.com', type: 'work' }],
    phones: [{ value: '+46 8 123 456', type: 'mobile' }, { value: '+46 8 999', type: 'fax' }],
    addresses: [{ type: 'home', street: 'Storgatan 1', city: 'Stockholm', postal_code: '111 22', country: 'Sweden' }],
    tags: ['Friends', 'Book club, Tuesday'],
  });
  const text = serializeVCard(contact);
  t.true(text.startsWith('BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:0b6f1f0e-0000-4000-8000-000000000001\r\nFN:Zoë Ångström\\, PhD\r\nN:Ångström;Zoë;;;PhD\r\n'));
  t.true(text.includes('TEL;VALUE=text;TYPE=cell:+46 8 123 456\r\n'));
  t.true(text.includes('CATEGORIES:Friends,Book club\\, Tuesday\r\n'));
  t.true(text.endsWith('END:VCARD\r\n'));
  for (const line of text.split('\r\n')) t.true(Buffer.byteLength(line, 'utf8') <= 75, line);
  t.false(text.includes('\uFFFD'));
  const { uid: _uid, ...expected } = contact;
  t.deepEqual(parseVCards(text), [{ ...expected, uid: contact.uid }]);
});
