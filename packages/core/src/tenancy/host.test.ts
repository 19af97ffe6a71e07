import test from 'ava';
import { subdomainFromHost } from './host.js';

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
