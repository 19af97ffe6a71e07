import test from 'ava';
import { hostnameOf, isServedHost, publicOrigin, subdomainFromHost } from './host.js';

test('the subdomain of the base domain names the workspace', (t) => {
  t.is(subdomainFromHost('acme.localhost:3000', 'localhost'), 'acme');
  t.is(subdomainFromHost('ACME.Example.com', 'example.com'), 'acme');
  t.is(subdomainFromHost('acme.example.com.', 'example.com'), 'acme');
});

test('the base domain itself and foreign hosts are the platform, not a workspace', (t) => {
  t.is(subdomainFromHost('localhost:3000', 'localhost'), null);
  t.is(subdomainFromHost('127.0.0.1:3000', 'localhost'), null);
  t.is(subdomainFromHost('[::1]:3000', 'localhost'), null);
  t.is(subdomainFromHost(undefined, 'localhost'), null);
  t.is(subdomainFromHost('evilexample.com', 'example.com'), null);
});

test('a host is served when it is the base domain, a subdomain of it, or an allowed name (any port)', (t) => {
  const allowed = ['localhost', '127.0.0.1', '::1', 'probe.internal'];
  for (const host of ['example.com', 'EXAMPLE.com:443', 'acme.example.com', 'acme.example.com.:8080', 'a.b.example.com', 'localhost:3000', '127.0.0.1', '[::1]:3000', 'probe.internal:9000']) {
    t.true(isServedHost(host, 'example.com', allowed), host);
  }
  for (const host of [undefined, '', 'evil.example', 'evil.example:8080', 'evilexample.com', 'example.com.evil.example', '10.0.0.1', '[::2]', 'example.com:port', 'a:b:c', 'other.internal']) {
    t.false(isServedHost(host, 'example.com', allowed), String(host));
  }
  t.is(hostnameOf('[::1]:3000'), '::1');
  t.is(hostnameOf('Acme.Example.COM.:80'), 'acme.example.com');
});

test('public origins come from the configured URL: scheme, base domain and port', (t) => {
  t.is(publicOrigin('https://example.com', null), 'https://example.com');
  t.is(publicOrigin('https://example.com', 'acme'), 'https://acme.example.com');
  t.is(publicOrigin('http://localhost:3000', 'acme'), 'http://acme.localhost:3000');
});
