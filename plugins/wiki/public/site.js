/* global document, location, URLSearchParams */
// The public wiki: the index of the workspace's published spaces, or one published page
// (?page={id}). It reads the app's public routes; nothing unpublished is answered by them.
(function () {
  'use strict';
  var VERSION = '2026-11-01';
  var root = document.getElementById('site');
  var pageId = new URLSearchParams(location.search).get('page');
  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function api(path) {
    return fetch(path, { headers: { 'X-Api-Version': VERSION } }).then(function (response) {
      return response.json().then(function (json) { return { status: response.status, body: json }; });
    });
  }
  function say(text) {
    root.textContent = '';
    root.appendChild(el('p', { role: 'status', class: 'error' }, text));
  }
  function index() {
    api('/wiki/site').then(function (answer) {
      if (answer.status !== 200) return say(answer.body.error || 'This wiki is not available.');
      var data = answer.body.data;
      document.title = data.workspace + ' · Wiki';
      root.textContent = '';
      root.appendChild(el('h1', {}, data.workspace + ' wiki'));
      if (!data.spaces.length) root.appendChild(el('p', {}, 'Nothing is published yet.'));
      data.spaces.forEach(function (space) {
        var section = el('section', { 'aria-label': space.name });
        section.appendChild(el('h2', {}, space.name));
        if (space.description) section.appendChild(el('p', {}, space.description));
        var list = el('ul', { class: 'tree' });
        space.pages.forEach(function (page) {
          var item = el('li', { class: 'depth-' + Math.min(page.depth, 6) });
          item.appendChild(el('a', { href: page.url }, page.title));
          list.appendChild(item);
        });
        section.appendChild(list);
        root.appendChild(section);
      });
    }, function () { say('This wiki is not available.'); });
  }
  function page(id) {
    api('/wiki/site/pages/' + encodeURIComponent(id)).then(function (answer) {
      if (answer.status !== 200) return say(answer.body.error || 'This page is not available.');
      var data = answer.body.data;
      document.title = data.title + ' · ' + data.space.name;
      root.textContent = '';
      var crumbs = el('nav', { class: 'crumbs', 'aria-label': 'Breadcrumbs' });
      crumbs.appendChild(el('span', {}, data.space.name));
      data.breadcrumbs.forEach(function (crumb) {
        crumbs.appendChild(document.createTextNode(' / '));
        crumbs.appendChild(el('a', { href: crumb.url }, crumb.title));
      });
      root.appendChild(crumbs);
      root.appendChild(el('h1', {}, data.title));
      var body = el('article', {});
      // The server escapes every text and keeps only page, http(s) and mailto links.
      body.innerHTML = data.html;
      root.appendChild(body);
      if (data.children.length) {
        var list = el('ul', { class: 'tree', 'aria-label': 'Pages below' });
        data.children.forEach(function (child) {
          var item = el('li', {});
          item.appendChild(el('a', { href: child.url }, child.title));
          list.appendChild(item);
        });
        root.appendChild(list);
      }
    }, function () { say('This page is not available.'); });
  }
  if (pageId) page(pageId); else index();
})();
