import test from 'ava';
import { haversineMetres, judgePosition } from './geo.js';

test('haversine: Paris to London is 343.6 km; one point is 0 m from itself', (t) => {
  t.is(Math.round(haversineMetres({ latitude: 48.8566, longitude: 2.3522 }, { latitude: 51.5074, longitude: -0.1278 }) / 100) / 10, 343.6);
  t.is(haversineMetres({ latitude: 10, longitude: 20 }, { latitude: 10, longitude: 20 }), 0);
  // Across the antimeridian: 0.002° of longitude at the equator, not 359.998°.
  t.is(Math.round(haversineMetres({ latitude: 0, longitude: 179.999 }, { latitude: 0, longitude: -179.999 })), 222);
});

const fence = { latitude: 48.8584, longitude: 2.2945, radius_m: 100 };

test('the accuracy rule: inside when the accuracy circle reaches the fence, never past the accuracy limit', (t) => {
  t.deepEqual(judgePosition(fence, { latitude: 48.8589, longitude: 2.2945 }, 100), { inside: true, distance_m: 55.6 });
  t.deepEqual(judgePosition(fence, { latitude: 48.8604, longitude: 2.2945 }, 100), { inside: false, distance_m: 222.4, reason: 'outside' });
  t.deepEqual(judgePosition(fence, { latitude: 48.8599, longitude: 2.2945, accuracy_m: 80 }, 100), { inside: true, distance_m: 166.8 });
  t.deepEqual(judgePosition(fence, { latitude: 48.8599, longitude: 2.2945, accuracy_m: 60 }, 100), { inside: false, distance_m: 166.8, reason: 'outside' });
  t.deepEqual(judgePosition(fence, { latitude: 48.8584, longitude: 2.2945, accuracy_m: 101 }, 100), { inside: false, distance_m: 0, reason: 'imprecise' });
  t.deepEqual(judgePosition(fence, { latitude: 48.8584, longitude: 2.2945, accuracy_m: 100 }, 100), { inside: true, distance_m: 0 });
});
