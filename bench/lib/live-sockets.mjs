// The live bench's client sockets, in a worker thread of the bench's process: their own event loop
// and V8 heap, so collecting their garbage (10,000 sockets are ~100 MB) never pauses the server
// they measure. bench/live.ts starts it with `workerData` = { version, host, sockets: [{ url, key,
// channel }] } and a SharedArrayBuffer counter of arrivals, then sends 'subscribe', 'collect' and
// 'close'. An arrival is a measured post's frame ("bench {seq}"): [seq, time], time on
// process.hrtime (the process's monotonic clock, the same in every thread), in ms.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { version, host, sockets: specs, counter } = workerData;
const arrived = new Int32Array(counter);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const arrivals = [];
const sockets = [];

function open(spec) {
  const socket = new WebSocket(`ws://${new URL(spec.url).host}/live?api_version=${version}`, { headers: { host, authorization: `Bearer ${spec.key}` } });
  let welcomed;
  const welcome = new Promise((resolve) => (welcomed = resolve));
  const subscribed = new Promise((resolve, reject) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'welcome') welcomed();
      else if (message.type === 'subscribed') resolve();
      else if (message.type === 'event' && typeof message.data?.body === 'string' && message.data.body.startsWith('bench ')) {
        arrivals.push([Number(message.data.body.slice(6)), now()]);
        Atomics.add(arrived, 0, 1);
      } else if (message.type === 'error') reject(new Error(JSON.stringify(message)));
    });
    socket.on('error', reject);
  });
  // A failure shows when the batch is awaited; until then it must not count as unhandled.
  subscribed.catch(() => {});
  sockets.push({ socket, channel: spec.channel, subscribed });
  return Promise.race([welcome, subscribed]);
}

async function run() {
  // Fifty at a time (each judged once), then subscribed fifty at a time on the bench's word.
  for (let start = 0; start < specs.length; start += 50) await Promise.all(specs.slice(start, start + 50).map(open));
  parentPort.postMessage({ type: 'opened' });
}

parentPort.on('message', async (message) => {
  try {
    if (message.type === 'subscribe') {
      for (let start = 0; start < sockets.length; start += 50) {
        const batch = sockets.slice(start, start + 50);
        for (const { socket, channel } of batch) socket.send(JSON.stringify({ type: 'subscribe', channel }));
        await Promise.all(batch.map(({ subscribed }) => subscribed));
      }
      parentPort.postMessage({ type: 'subscribed' });
    } else if (message.type === 'collect') parentPort.postMessage({ type: 'arrivals', arrivals });
    else if (message.type === 'close') {
      for (const { socket } of sockets) socket.terminate();
      parentPort.close();
    }
  } catch (error) {
    parentPort.postMessage({ type: 'error', error: String(error?.message ?? error) });
  }
});

run().catch((error) => parentPort.postMessage({ type: 'error', error: String(error?.message ?? error) }));
