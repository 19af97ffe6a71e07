/* global document, location, window, FormData */
// A web-to-lead form: the token is in the URL fragment (never in a server log). It reads the form's
// name from the public API and posts what the visitor writes; the hidden "website" field is a
// honeypot only bots fill.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var token = location.hash.slice(1);
  window.addEventListener('hashchange', function () { location.reload(); });
  var root = document.getElementById('lead-form');
  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function api(method, path, body) {
    var init = { method: method, headers: { 'X-Api-Version': VERSION } };
    if (body) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch('/crm/forms/' + encodeURIComponent(token) + path, init).then(function (response) {
      return response.json().then(function (json) { return { status: response.status, body: json }; });
    });
  }
  function field(form, name, text, type, required) {
    var label = el('label', { for: 'field-' + name }, text + (required ? ' *' : ''));
    var input = type === 'textarea' ? el('textarea', { id: 'field-' + name, name: name, rows: '4', maxlength: '2000' }) : el('input', { id: 'field-' + name, name: name, type: type });
    if (required) input.required = true;
    form.appendChild(label);
    form.appendChild(input);
  }
  function say(text, className) {
    root.textContent = '';
    root.appendChild(el('p', { role: 'status', class: className || '' }, text));
  }
  if (!token) return say('This link is incomplete.', 'error');
  api('GET', '').then(function (answer) {
    if (answer.status !== 200) return say(answer.body.error || 'This form is not available.', 'error');
    document.title = answer.body.data.name + ' · ' + answer.body.data.company;
    document.getElementById('title').textContent = answer.body.data.name;
    var form = el('form', { novalidate: '' });
    field(form, 'name', 'Your name', 'text', true);
    field(form, 'email', 'E-mail', 'email', true);
    field(form, 'company_name', 'Company', 'text', false);
    field(form, 'phone', 'Phone', 'tel', false);
    field(form, 'message', 'Message', 'textarea', false);
    var trap = el('div', { class: 'hidden-field', 'aria-hidden': 'true' });
    trap.appendChild(el('input', { name: 'website', type: 'text', tabindex: '-1', autocomplete: 'off' }));
    form.appendChild(trap);
    var error = el('p', { role: 'alert', class: 'error' });
    form.appendChild(error);
    form.appendChild(el('button', { type: 'submit' }, 'Send'));
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var data = new FormData(form);
      var body = {};
      ['name', 'email', 'company_name', 'phone', 'message', 'website'].forEach(function (name) { body[name] = String(data.get(name) || ''); });
      api('POST', '/leads', body).then(function (sent) {
        if (sent.status === 200) return say('Thank you: we will get back to you soon.');
        error.textContent = sent.body.error || 'Sending failed; try again.';
      });
    });
    root.textContent = '';
    root.appendChild(form);
  });
})();
