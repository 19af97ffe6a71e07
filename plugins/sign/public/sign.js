/* global document, location, window, FileReader */
// The external signer's page: the link's token is in the URL fragment (never sent to a server log).
// It opens the link (what to sign; the server refuses it before the signer's turn), mails a
// one-time code, and signs with a drawn, typed or uploaded signature and the signer's fields.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var token = location.hash.slice(1);
  window.addEventListener('hashchange', function () { location.reload(); });
  var root = document.getElementById('signing');
  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function api(path, body) {
    return fetch('/sign/signing/' + encodeURIComponent(token) + path, { method: 'POST', headers: { 'X-Api-Version': VERSION, 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) })
      .then(function (response) { return response.json().then(function (json) { return { status: response.status, body: json }; }); });
  }
  function say(node, role, text) {
    node.textContent = '';
    if (text) node.appendChild(el('p', { role: role }, text));
  }
  api('').then(function (opened) {
    if (opened.status !== 200) { root.appendChild(el('p', { role: 'alert' }, opened.body.error)); return; }
    var page = opened.body.data;
    document.getElementById('title').textContent = page.title;
    document.title = page.title + ' — sign';
    var intro = el('section', { 'aria-labelledby': 'intro' });
    intro.appendChild(el('h2', { id: 'intro' }, 'Hello ' + page.name));
    intro.appendChild(el('p', {}, page.sender + ' asks you to ' + (page.role === 'approver' ? 'approve' : 'sign') + ' “' + page.title + '” (' + page.pages + ' page' + (page.pages === 1 ? '' : 's') + ').'));
    if (page.message) intro.appendChild(el('p', { class: 'meta' }, page.message));
    root.appendChild(intro);

    var values = {};
    var inputs = page.fields.filter(function (field) { return (field.type === 'text' || field.type === 'checkbox') && !field.merge_key; });
    if (inputs.length) {
      var fields = el('section', { 'aria-labelledby': 'fields' });
      fields.appendChild(el('h2', { id: 'fields' }, 'Your fields'));
      inputs.forEach(function (field, index) {
        var id = 'field-' + index;
        if (field.type === 'checkbox') {
          var box = el('input', { type: 'checkbox', id: id });
          box.addEventListener('change', function () { values[field.id] = box.checked; });
          var line = el('div', { class: 'check' });
          line.appendChild(box);
          line.appendChild(el('label', { for: id }, (field.label || 'Tick') + (field.required ? ' (required)' : '')));
          fields.appendChild(line);
        } else {
          var label = el('label', { for: id }, (field.label || 'Text') + (field.required ? ' (required)' : ''));
          var input = el('input', { type: 'text', id: id, maxlength: '1000' });
          input.addEventListener('input', function () { values[field.id] = input.value; });
          fields.appendChild(label);
          fields.appendChild(input);
        }
      });
      root.appendChild(fields);
    }

    var needsMark = page.fields.some(function (field) { return field.type === 'signature' || field.type === 'initials'; });
    var mark = { kind: 'type' };
    var canvas = null;
    var drawn = false;
    if (needsMark) {
      var signature = el('section', { 'aria-labelledby': 'signature' });
      signature.appendChild(el('h2', { id: 'signature' }, 'Your signature'));
      var set = el('fieldset', { class: 'choices' });
      set.appendChild(el('legend', {}, 'How do you sign?'));
      var panes = {};
      [['type', 'Type it'], ['draw', 'Draw it'], ['upload', 'Upload an image']].forEach(function (choice) {
        var radio = el('input', { type: 'radio', name: 'kind', value: choice[0], id: 'kind-' + choice[0] });
        if (choice[0] === 'type') radio.checked = true;
        radio.addEventListener('change', function () {
          mark.kind = choice[0];
          Object.keys(panes).forEach(function (kind) { panes[kind].hidden = kind !== choice[0]; });
        });
        var label = el('label', { for: 'kind-' + choice[0] });
        label.appendChild(radio);
        label.appendChild(document.createTextNode(choice[1]));
        set.appendChild(label);
      });
      signature.appendChild(set);
      panes.type = el('div');
      panes.type.appendChild(el('label', { for: 'typed' }, 'Your name as your signature'));
      var typed = el('input', { type: 'text', id: 'typed', maxlength: '200', value: page.name });
      panes.type.appendChild(typed);
      panes.draw = el('div', { hidden: '' });
      canvas = el('canvas', { width: '600', height: '180', role: 'img', 'aria-label': 'Draw your signature here' });
      var pen = canvas.getContext('2d');
      pen.lineWidth = 3;
      pen.lineCap = 'round';
      var down = false;
      function at(event) { var box = canvas.getBoundingClientRect(); return [(event.clientX - box.left) * canvas.width / box.width, (event.clientY - box.top) * canvas.height / box.height]; }
      canvas.addEventListener('pointerdown', function (event) { down = true; var p = at(event); pen.beginPath(); pen.moveTo(p[0], p[1]); });
      canvas.addEventListener('pointermove', function (event) { if (!down) return; var p = at(event); pen.lineTo(p[0], p[1]); pen.stroke(); drawn = true; });
      window.addEventListener('pointerup', function () { down = false; });
      panes.draw.appendChild(canvas);
      var clear = el('button', { type: 'button', class: 'quiet' }, 'Clear the drawing');
      clear.addEventListener('click', function () { pen.clearRect(0, 0, canvas.width, canvas.height); drawn = false; });
      panes.draw.appendChild(clear);
      panes.upload = el('div', { hidden: '' });
      panes.upload.appendChild(el('label', { for: 'upload' }, 'A PNG or JPEG image of your signature'));
      var upload = el('input', { type: 'file', id: 'upload', accept: 'image/png,image/jpeg' });
      upload.addEventListener('change', function () {
        var file = upload.files[0];
        if (!file) return;
        var reader = new FileReader();
        reader.onload = function () { mark.uploaded = reader.result; };
        reader.readAsDataURL(file);
      });
      panes.upload.appendChild(upload);
      signature.appendChild(panes.type);
      signature.appendChild(panes.draw);
      signature.appendChild(panes.upload);
      root.appendChild(signature);
      mark.typed = typed;
    }

    var confirm = el('section', { 'aria-labelledby': 'confirm' });
    confirm.appendChild(el('h2', { id: 'confirm' }, 'Confirm with a code'));
    confirm.appendChild(el('p', {}, 'We e-mail you a one-time code to prove this is you.'));
    var sendCode = el('button', { type: 'button' }, 'E-mail me a code');
    var codeNote = el('div');
    sendCode.addEventListener('click', function () {
      api('/code').then(function (answer) {
        say(codeNote, answer.status === 200 ? 'status' : 'alert', answer.status === 200 ? 'A code is on its way to ' + answer.body.data.sent_to + '.' : answer.body.error);
      });
    });
    confirm.appendChild(sendCode);
    confirm.appendChild(codeNote);
    confirm.appendChild(el('label', { for: 'code' }, 'Code from the e-mail'));
    var code = el('input', { type: 'text', id: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6' });
    confirm.appendChild(code);
    var outcome = el('div');
    var sign = el('button', { type: 'button' }, page.role === 'approver' ? 'Approve' : 'Sign');
    sign.addEventListener('click', function () {
      var body = { code: code.value.trim(), values: values };
      if (needsMark) {
        if (mark.kind === 'type') body.signature = { kind: 'type', text: mark.typed.value.trim() };
        else if (mark.kind === 'draw') body.signature = drawn ? { kind: 'draw', image: canvas.toDataURL('image/png') } : { kind: 'draw' };
        else body.signature = mark.uploaded ? { kind: 'upload', image: mark.uploaded } : { kind: 'upload' };
      }
      api('/sign', body).then(function (answer) {
        if (answer.status !== 200) { say(outcome, 'alert', answer.body.error); return; }
        root.textContent = '';
        root.appendChild(el('p', { role: 'status' }, answer.body.data.status === 'completed' ? 'Signed. Everyone has signed: the signed document is on its way to you by e-mail.' : 'Signed. Thank you: we will e-mail you the signed document once everyone has signed.'));
      });
    });
    confirm.appendChild(sign);
    var reason = el('input', { type: 'text', id: 'reason', maxlength: '1000' });
    var decline = el('button', { type: 'button', class: 'quiet' }, 'Decline');
    decline.addEventListener('click', function () {
      api('/decline', { code: code.value.trim(), reason: reason.value.trim() }).then(function (answer) {
        if (answer.status !== 200) { say(outcome, 'alert', answer.body.error); return; }
        root.textContent = '';
        root.appendChild(el('p', { role: 'status' }, 'You declined. The sender is told.'));
      });
    });
    confirm.appendChild(el('label', { for: 'reason' }, 'Reason, to decline'));
    confirm.appendChild(reason);
    confirm.appendChild(decline);
    confirm.appendChild(outcome);
    root.appendChild(confirm);
  });
})();
