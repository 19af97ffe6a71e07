// Progressive enhancement, in the spirit of htmx: a link or a GET form marked
// data-partial="/partials/..." data-target="#id" refreshes just that fragment instead of the
// whole page, and the address bar still shows the full page's URL (which works without this
// script, and on reload). Any surprise (signed out, an error, a network failure) falls back
// to the plain navigation.
(function () {
  'use strict';
  function swap(partialUrl, pageUrl, targetSelector, push) {
    var target = document.querySelector(targetSelector);
    if (!target || !window.fetch) return false;
    target.setAttribute('aria-busy', 'true');
    fetch(partialUrl, { credentials: 'same-origin', headers: { accept: 'text/html', 'x-partial': '1' }, redirect: 'manual' })
      .then(function (response) {
        if (response.status !== 200) throw new Error('status ' + response.status);
        return response.text();
      })
      .then(function (html) {
        var holder = document.createElement('div');
        holder.innerHTML = html.trim();
        var fresh = holder.firstElementChild;
        if (!fresh) throw new Error('empty fragment');
        target.replaceWith(fresh);
        if (push) history.pushState({ partial: partialUrl, target: targetSelector }, '', pageUrl);
        document.dispatchEvent(new CustomEvent('partial:swapped', { detail: { target: targetSelector } }));
      })
      .catch(function () {
        window.location.assign(pageUrl);
      });
    return true;
  }
  function query(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === 'string' && value !== '') params.append(name, value);
    });
    var text = params.toString();
    return text ? '?' + text : '';
  }
  document.addEventListener('click', function (event) {
    var link = event.target instanceof Element ? event.target.closest('a[data-partial]') : null;
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (swap(link.getAttribute('data-partial'), link.href, link.getAttribute('data-target'), true)) event.preventDefault();
  });
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-partial') || form.method.toLowerCase() !== 'get') return;
    var search = query(form);
    if (swap(form.getAttribute('data-partial') + search, form.action.split('?')[0] + search, form.getAttribute('data-target'), true)) event.preventDefault();
  });
  window.addEventListener('popstate', function (event) {
    var state = event.state;
    if (state && state.partial) swap(state.partial.split('?')[0] + window.location.search, window.location.href, state.target, false);
    else window.location.reload();
  });
})();
