/* global document, location, URLSearchParams */
// A paper shared by an anonymous link (?token={token}), read-only, without signing in. It reads
// the app's public route GET /papers/shared/{token}, which answers nothing else of the workspace.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var root = document.getElementById('paper');
  var token = new URLSearchParams(location.search).get('token') || '';
  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function say(text) {
    root.textContent = '';
    root.appendChild(el('h1', {}, 'Shared paper'));
    root.appendChild(el('p', { role: 'status', class: 'error' }, text));
  }
  if (!/^[A-Za-z0-9_-]{10,100}$/.test(token)) return say('This link is not complete: ask for it again.');
  fetch('/papers/shared/' + encodeURIComponent(token), { headers: { 'X-Api-Version': VERSION } }).then(function (response) {
    return response.json().then(function (json) { return { status: response.status, body: json }; });
  }).then(function (answer) {
    if (answer.status !== 200) return say(answer.body.error || 'This paper is not available.');
    var data = answer.body.data;
    document.title = data.title;
    root.textContent = '';
    root.appendChild(el('h1', {}, data.title));
    var note = 'Read-only: shared with anyone who has the link.';
    if (data.expires_at) note += ' The link works until ' + new Date(data.expires_at).toLocaleString(document.documentElement.lang, { dateStyle: 'long', timeStyle: 'short' }) + '.';
    root.appendChild(el('p', { class: 'note' }, note));
    var body = el('article', { 'aria-label': data.title });
    // The server escapes every text, keeps only safe links and inlines images as data URLs.
    body.innerHTML = data.html;
    root.appendChild(body);
  }, function () { say('This paper is not available.'); });
})();
