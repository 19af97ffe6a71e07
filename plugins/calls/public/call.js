/* global window, document, navigator, location, WebSocket, RTCPeerConnection, URLSearchParams */
// A minimal peer-to-peer client of the Calls app (docs/apps/calls.md): it joins the call over
// HTTP, opens the signaling socket with the ticket, and keeps one RTCPeerConnection per other
// peer (a mesh). The newcomer makes the offers; ICE candidates trickle through `signal`.
// Open it at /public/apps/calls/call.html?call={call id}, signed in to the workspace.
const API_VERSION = '2026-11-01';
const callId = new URLSearchParams(location.search).get('call');
const statusLine = document.getElementById('status');
const videos = document.getElementById('videos');
/** What the page exposes for scripts and tests: peers by peer id, and the state of each connection. */
const state = { phase: 'joining', peerId: null, connections: {}, error: null };
window.wpkCall = state;
const peers = new Map();
const chains = new Map();
let socket = null;
let media = null;
let ticket = null;

function say(text) {
  statusLine.textContent = text;
}

async function api(method, path) {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-api-version': API_VERSION, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'POST' ? '{}' : undefined,
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `${method} ${path}: ${response.status}`);
  return body.data;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function videoFor(id, stream, muted) {
  let video = document.getElementById(`video-${id}`);
  if (!video) {
    video = document.createElement('video');
    video.id = `video-${id}`;
    video.autoplay = true;
    video.playsInline = true;
    video.muted = muted;
    videos.append(video);
  }
  video.srcObject = stream;
}

function connectionTo(peerId) {
  let connection = peers.get(peerId);
  if (connection) return connection;
  connection = new RTCPeerConnection({ iceServers: ticket.ice_servers });
  peers.set(peerId, connection);
  for (const track of media.getTracks()) connection.addTrack(track, media);
  connection.onicecandidate = (event) => {
    if (event.candidate) send({ type: 'signal', to: peerId, data: { candidate: event.candidate.toJSON() } });
  };
  connection.ontrack = (event) => videoFor(peerId, event.streams[0], false);
  connection.oniceconnectionstatechange = () => {
    state.connections[peerId] = connection.iceConnectionState;
    const connected = Object.values(state.connections).filter((value) => value === 'connected' || value === 'completed').length;
    say(`In the call: ${connected} of ${peers.size} peer(s) connected`);
  };
  state.connections[peerId] = connection.iceConnectionState;
  return connection;
}

function drop(peerId) {
  peers.get(peerId)?.close();
  peers.delete(peerId);
  chains.delete(peerId);
  delete state.connections[peerId];
  document.getElementById(`video-${peerId}`)?.remove();
}

async function offerTo(peerId) {
  const connection = connectionTo(peerId);
  await connection.setLocalDescription(await connection.createOffer());
  send({ type: 'signal', to: peerId, data: { description: connection.localDescription.toJSON() } });
}

async function onSignal(from, data) {
  const connection = connectionTo(from);
  if (data.description) {
    await connection.setRemoteDescription(data.description);
    if (data.description.type === 'offer') {
      await connection.setLocalDescription(await connection.createAnswer());
      send({ type: 'signal', to: from, data: { description: connection.localDescription.toJSON() } });
    }
  } else if (data.candidate) {
    await connection.addIceCandidate(data.candidate);
  }
}

function hangUp(text) {
  for (const peerId of [...peers.keys()]) drop(peerId);
  socket?.close();
  state.phase = 'left';
  say(text);
}

async function main() {
  if (!callId) throw new Error('Open this page with ?call={call id}');
  const joined = await api('POST', `/calls/${encodeURIComponent(callId)}/sessions`);
  ticket = joined.signaling;
  document.getElementById('title').textContent = joined.call.title;
  media = await navigator.mediaDevices.getUserMedia({ audio: true, video: joined.call.mode === 'video' });
  videoFor('local', media, true);
  const url = new URL(ticket.url);
  url.searchParams.set('api_version', API_VERSION);
  socket = new WebSocket(url);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    switch (message.type) {
      case 'welcome':
        state.peerId = message.peer_id;
        send({ type: 'join', session: ticket.session });
        break;
      case 'joined':
        state.phase = 'joined';
        say(message.peers.length === 0 ? 'Waiting for others…' : 'Connecting…');
        for (const peer of message.peers) offerTo(peer.peer_id).catch(fail);
        break;
      case 'peer.joined':
        connectionTo(message.peer_id);
        break;
      case 'signal': {
        // One peer's signals in order: a candidate waits for the description before it.
        const chain = (chains.get(message.from) ?? Promise.resolve()).then(() => onSignal(message.from, message.data)).catch(fail);
        chains.set(message.from, chain);
        break;
      }
      case 'peer.left':
        drop(message.peer_id);
        break;
      case 'ended':
        hangUp('The call ended.');
        break;
      case 'removed':
        hangUp('You left the call.');
        break;
      case 'error':
        fail(new Error(message.error));
        break;
    }
  };
}

function fail(error) {
  state.error = String(error?.message ?? error);
  say(`Problem: ${state.error}`);
}

document.getElementById('leave').addEventListener('click', () => {
  api('DELETE', `/calls/${encodeURIComponent(callId)}/sessions`).then(() => hangUp('You left the call.'), fail);
});

main().catch(fail);
