/* global document, location, FormData, URLSearchParams */
// The careers page and its embeddable snippet: lists the open jobs of the workspace (or of one
// embed, data-embed="{id}") and shows each job's apply form, which posts to the public API.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var script = document.currentScript;
  var embed = script && script.getAttribute('data-embed');
  var base = script ? new URL(script.src, location.href).origin : location.origin;
  var root = document.querySelector(embed ? '[data-wpk-careers="' + embed + '"]' : '[data-wpk-careers]');
  if (!root) return;

  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function api(method, path, body) {
    var init = { method: method, headers: { 'X-Api-Version': VERSION } };
    if (body) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(base + path, init).then(function (response) {
      return response.json().then(function (json) { return { status: response.status, body: json }; });
    });
  }

  function field(form, question) {
    var label = el('label', {}, question.text + (question.required ? ' *' : ''));
    var input;
    if (question.type === 'yes_no' || question.type === 'single_select') {
      input = el('select', { name: question.key });
      input.appendChild(el('option', { value: '' }, '—'));
      (question.type === 'yes_no' ? ['yes', 'no'] : question.options || []).forEach(function (option) { input.appendChild(el('option', { value: option }, option)); });
    } else if (question.type === 'long_text') {
      input = el('textarea', { name: question.key });
    } else {
      input = el('input', { name: question.key, type: question.type === 'number' ? 'number' : 'text' });
    }
    if (question.required) input.required = true;
    label.appendChild(input);
    form.appendChild(label);
  }

  function applyForm(job) {
    var form = el('form', { 'data-job': job.id });
    [['name', 'Full name', 'text', true], ['email', 'Email', 'email', true], ['phone', 'Phone', 'tel', false], ['linkedin', 'LinkedIn URL', 'url', false]].forEach(function (spec) {
      var label = el('label', {}, spec[1] + (spec[3] ? ' *' : ''));
      var input = el('input', { name: spec[0], type: spec[2] });
      if (spec[3]) input.required = true;
      label.appendChild(input);
      form.appendChild(label);
    });
    job.questions.forEach(function (question) { field(form, question); });
    form.appendChild(el('button', { type: 'submit' }, 'Apply'));
    var status = el('p', { role: 'status' });
    form.appendChild(status);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var data = new FormData(form);
      var body = { name: data.get('name'), email: data.get('email'), answers: {} };
      ['phone', 'linkedin'].forEach(function (name) { if (data.get(name)) body[name] = data.get(name); });
      job.questions.forEach(function (question) { if (data.get(question.key)) body.answers[question.key] = data.get(question.key); });
      api('POST', job.apply, body).then(function (answer) {
        status.textContent = answer.status === 200 ? 'Thank you, your application for ' + answer.body.data.job_title + ' was received.' : answer.body.error;
        if (answer.status === 200) form.querySelector('button').disabled = true;
      });
    });
    return form;
  }

  function details(article, job) {
    article.appendChild(el('p', { class: 'meta' }, [job.location, job.workplace_type, job.employment_type].filter(Boolean).join(' · ')));
    if (job.salary) article.appendChild(el('p', { class: 'salary' }, job.salary.min + ' – ' + job.salary.max + ' ' + job.salary.currency));
    article.appendChild(el('p', { class: 'description' }, job.description));
  }

  // The job page (careers.html?job={id}): one job with its apply form open.
  var single = !embed && new URLSearchParams(location.search).get('job');
  if (single) {
    api('GET', '/ats/careers/jobs/' + encodeURIComponent(single)).then(function (answer) {
      var heading = document.getElementById('company');
      if (answer.status !== 200) { root.appendChild(el('p', { role: 'alert' }, answer.body.error)); return; }
      var job = answer.body.data;
      if (heading) heading.textContent = job.title;
      document.title = job.title;
      var article = el('article', { 'data-job': job.id });
      details(article, job);
      article.appendChild(el('h2', {}, 'Apply'));
      article.appendChild(applyForm(job));
      root.appendChild(article);
      root.appendChild(el('a', { href: location.pathname }, 'All open positions'));
    });
    return;
  }

  // The job board: every open job, each linking to its page, with the form one click away.
  api('GET', embed ? '/ats/careers/embeds/' + encodeURIComponent(embed) : '/ats/careers').then(function (answer) {
    if (answer.status !== 200) { root.appendChild(el('p', {}, answer.body.error)); return; }
    var heading = document.getElementById('company');
    if (heading) heading.textContent = 'Careers at ' + answer.body.data.company;
    var jobs = answer.body.data.jobs;
    if (!jobs.length) root.appendChild(el('p', {}, 'No open positions right now.'));
    jobs.forEach(function (job) {
      var article = el('article', { 'data-job': job.id });
      var title = el('h2');
      title.appendChild(el('a', { href: base + '/public/apps/ats/careers.html?job=' + encodeURIComponent(job.id) }, job.title));
      article.appendChild(title);
      details(article, job);
      var open = el('button', { type: 'button' }, 'Apply for ' + job.title);
      open.addEventListener('click', function () { open.replaceWith(applyForm(job)); });
      article.appendChild(open);
      root.appendChild(article);
    });
  });
})();
