import test from 'ava';
import { webRtcConfig } from './config.js';

test('WEBRTC_ICE_SERVERS: none by default; a JSON array of STUN/TURN servers, urls as a string or a list', (t) => {
  t.deepEqual(webRtcConfig({}, {}), { iceServers: [], meshMaxPeers: 8 });
  const env = { WEBRTC_ICE_SERVERS: JSON.stringify([{ urls: 'stun:stun.example.net:3478' }, { urls: ['turn:turn.example.net:3478?transport=udp', 'turns:turn.example.net:443'], username: 'u', credential: 'secret-credential' }]), WEBRTC_MESH_MAX_PEERS: '4' };
  t.deepEqual(webRtcConfig({}, env), {
    iceServers: [{ urls: ['stun:stun.example.net:3478'] }, { urls: ['turn:turn.example.net:3478?transport=udp', 'turns:turn.example.net:443'], username: 'u', credential: 'secret-credential' }],
    meshMaxPeers: 4,
  });
});

test('a bad WEBRTC_ICE_SERVERS or WEBRTC_MESH_MAX_PEERS stops start-up naming the variable, never echoing a credential', (t) => {
  const refusals: Array<[Record<string, string>, RegExp]> = [
    [{ WEBRTC_ICE_SERVERS: 'stun:x' }, /^WEBRTC_ICE_SERVERS must be a JSON array/],
    [{ WEBRTC_ICE_SERVERS: '{"urls": "stun:x"}' }, /^WEBRTC_ICE_SERVERS: not an array/],
    [{ WEBRTC_ICE_SERVERS: '[{"urls": ["http://x"]}]' }, /^WEBRTC_ICE_SERVERS: entry 0: urls must be/],
    [{ WEBRTC_ICE_SERVERS: '[{"urls": ["turn:x"], "credential": 42}]' }, /^WEBRTC_ICE_SERVERS: entry 0: credential must be a string/],
    [{ WEBRTC_MESH_MAX_PEERS: '1' }, /^WEBRTC_MESH_MAX_PEERS must be an integer from 2 to 50/],
    [{ WEBRTC_MESH_MAX_PEERS: '51' }, /^WEBRTC_MESH_MAX_PEERS must be an integer from 2 to 50/],
  ];
  for (const [env, message] of refusals) t.throws(() => webRtcConfig({}, env), { message }, JSON.stringify(env));
  const error = t.throws(() => webRtcConfig({}, { WEBRTC_ICE_SERVERS: '[{"urls": ["bad"], "credential": "hunter2-secret"}]' }));
  t.false(error!.message.includes('hunter2-secret'));
});
