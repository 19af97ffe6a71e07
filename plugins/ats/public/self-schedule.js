/* global document, location, window */
// The candidate's self-schedule page: the token is in the URL fragment (never sent to a server
// log); it reads the offered slots from the public API and books the one the candidate picks.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var token = location.hash.slice(1);
  // Another link opened in the same tab changes only the fragment: load the page for it.
  window.addEventListener('hashchange', function () { location.reload(); });
  var root = document.getElementById('schedule');
  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function api(method, body) {
    var init = { method: method, headers: { 'X-Api-Version': VERSION } };
    if (body) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch('/ats/self-schedule/' + encodeURIComponent(token), init).then(function (response) {
      return response.json().then(function (json) { return { status: response.status, body: json }; });
    });
  }
  function when(iso) {
    return new Date(iso).toLocaleString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  }
  api('GET').then(function (answer) {
    if (answer.status !== 200) { root.appendChild(el('p', { role: 'alert' }, answer.body.error)); return; }
    var page = answer.body.data;
    document.getElementById('title').textContent = page.title + ' — ' + page.job_title + ' at ' + page.company;
    root.appendChild(el('p', {}, 'Hello ' + page.candidate_name + ', please pick one time (' + page.duration_minutes + ' minutes).'));
    if (page.location) root.appendChild(el('p', {}, 'Where: ' + page.location));
    if (page.instructions) root.appendChild(el('p', {}, page.instructions));
    var list = el('ul', { class: 'slots' });
    page.slots.forEach(function (slot) {
      var item = el('li');
      var button = el('button', { type: 'button', 'data-start': slot.start }, when(slot.start));
      button.addEventListener('click', function () {
        api('POST', { start: slot.start }).then(function (picked) {
          root.textContent = '';
          root.appendChild(el('p', { role: 'status' }, picked.status === 200 ? 'Booked: ' + when(picked.body.data.scheduled_at) + '. See you then!' : picked.body.error));
        });
      });
      item.appendChild(button);
      list.appendChild(item);
    });
    root.appendChild(list);
  });
})();
