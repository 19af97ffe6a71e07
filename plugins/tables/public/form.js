/* global document, location, window */
// A table's public form: the token is in the URL fragment (never in a server log). It reads the
// form's title and fields from the public API (GET /tables/forms/{token}) and posts the visitor's
// answers as cells by field id; a refusal (a bad or replaced link, a refused value, too many
// submissions) is shown as the API words it, with its status.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var token = location.hash.slice(1);
  window.addEventListener('hashchange', function () { location.reload(); });
  var root = document.getElementById('table-form');
  function node(tag, attributes, text) {
    var made = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) made.textContent = String(text);
    return made;
  }
  function call(method, body) {
    var init = { method: method, headers: { 'X-Api-Version': VERSION } };
    if (body) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch('/tables/forms/' + encodeURIComponent(token), init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) { return { status: response.status, body: json }; });
    });
  }
  function refusal(answer) {
    return (answer.body && answer.body.error ? answer.body.error : 'The request failed') + ' (' + answer.status + ')';
  }
  function show(text, role, className) {
    root.textContent = '';
    root.appendChild(node('p', { role: role, class: className || '' }, text));
  }
  // One input per field, by type; each reads back its cell value (undefined: left empty).
  function input(field) {
    var id = 'field-' + field.id;
    var control;
    if (field.type === 'long_text') control = node('textarea', { id: id, rows: '4' });
    else if (field.type === 'single_select' || field.type === 'multiple_select') {
      control = node('select', { id: id });
      if (field.type === 'multiple_select') control.multiple = true;
      else control.appendChild(node('option', { value: '' }, '—'));
      field.choices.forEach(function (choice) { control.appendChild(node('option', { value: choice }, choice)); });
    } else {
      var types = { number: 'number', date: 'date', checkbox: 'checkbox', currency: 'text' };
      control = node('input', { id: id, type: types[field.type] || 'text' });
      if (field.type === 'currency') control.setAttribute('inputmode', 'decimal');
      if (field.type === 'number') control.setAttribute('step', 'any');
    }
    return {
      field: field,
      control: control,
      label: node('label', { for: id, class: field.type === 'checkbox' ? 'check' : '' }, field.name),
      value: function () {
        if (field.type === 'checkbox') return control.checked;
        if (field.type === 'multiple_select') return Array.prototype.filter.call(control.options, function (option) { return option.selected; }).map(function (option) { return option.value; });
        var text = control.value.trim();
        if (text === '') return undefined;
        return field.type === 'number' ? Number(text) : text;
      },
    };
  }
  if (!token) return show('This link is incomplete: it names no form.', 'alert', 'error');
  call('GET').then(function (answer) {
    if (answer.status !== 200) return show('This form is not available: ' + refusal(answer), 'alert', 'error');
    var data = answer.body.data;
    document.title = data.title;
    document.getElementById('title').textContent = data.title;
    var form = node('form', { novalidate: '', 'aria-labelledby': 'title' });
    var inputs = data.fields.map(input);
    inputs.forEach(function (one) {
      if (one.field.type === 'checkbox') { one.label.insertBefore(one.control, one.label.firstChild); form.appendChild(one.label); } else { form.appendChild(one.label); form.appendChild(one.control); }
    });
    var error = node('p', { role: 'alert', class: 'error' });
    form.appendChild(error);
    var button = node('button', { type: 'submit' }, 'Send');
    form.appendChild(button);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var cells = {};
      inputs.forEach(function (one) {
        one.control.removeAttribute('aria-invalid');
        var value = one.value();
        if (value !== undefined) cells[one.field.id] = value;
      });
      button.disabled = true;
      error.textContent = '';
      call('POST', { cells: cells }).then(function (sent) {
        button.disabled = false;
        if (sent.status === 200) return show('Thank you: your answers were sent.', 'status');
        var named = /^cells\.([^:]+): /.exec((sent.body && sent.body.error) || '');
        var wrong = named && inputs.filter(function (one) { return one.field.id === named[1]; })[0];
        if (wrong) { wrong.control.setAttribute('aria-invalid', 'true'); wrong.control.setAttribute('aria-describedby', 'form-error'); }
        error.id = 'form-error';
        error.textContent = (sent.body && sent.body.error ? sent.body.error.replace(/^cells\.[^:]+: /, '') : 'Sending failed') + ' (' + sent.status + ')';
      }, function () {
        button.disabled = false;
        error.textContent = 'Sending failed: check the connection and try again.';
      });
    });
    root.textContent = '';
    root.appendChild(form);
  });
})();
