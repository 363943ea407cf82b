/* Offline search for the docs built by tools/build_docs.py.
   The index (window.__searchIndex, from search-index.js) lists every page section:
   {p: page title, h: heading, u: url, d: description, x: text}. Nothing is fetched: the index is a
   script next to the pages, so search also works from file://. Every query word must occur in
   the section (title, heading or text, case-insensitive); title and heading hits rank first. */
(function () {
  var input = document.getElementById('search-input');
  var list = document.getElementById('search-results');
  if (!input || !list) return;
  var index = (window.__searchIndex || []).map(function (e) {
    return {e: e, p: e.p.toLowerCase(), h: e.h.toLowerCase(), x: (e.d + ' ' + e.x).toLowerCase()};
  });
  var MAX = 12, active = -1;

  function score(it, words) {
    var s = 0;
    for (var i = 0; i < words.length; i++) {
      var w = words[i], inP = it.p.indexOf(w) >= 0, inH = it.h.indexOf(w) >= 0, at = it.x.indexOf(w);
      if (!inP && !inH && at < 0) return 0;
      if (inH) s += 8 + (new RegExp('(^|[^a-z0-9])' + w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '([^a-z0-9]|$)').test(it.h) ? 8 : 0);
      if (inP) s += it.h ? 4 : 12;
      if (at >= 0) s += Math.min(5, it.x.split(w).length - 1);
    }
    return s;
  }

  function snippet(it, words) {
    var text = it.e.d ? it.e.d + ' ' + it.e.x : it.e.x, low = text.toLowerCase(), at = -1;
    for (var i = 0; i < words.length && at < 0; i++) at = low.indexOf(words[i]);
    var from = Math.max(0, at - 40);
    return (from > 0 ? '…' : '') + text.slice(from, from + 140) + (from + 140 < text.length ? '…' : '');
  }

  function show(q) {
    var words = q.toLowerCase().split(/\s+/).filter(Boolean);
    list.innerHTML = ''; active = -1;
    if (!words.length) { list.hidden = true; return; }
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], words);
      if (s > 0) hits.push([s, i]);
    }
    hits.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    if (!hits.length) {
      var li = document.createElement('li'); li.className = 'search-none'; li.textContent = 'No results';
      list.appendChild(li);
    }
    hits.slice(0, MAX).forEach(function (h) {
      var it = index[h[1]], li = document.createElement('li'), a = document.createElement('a');
      a.href = it.e.u;
      var t = document.createElement('span'); t.className = 'search-title';
      t.textContent = it.e.h ? it.e.p + ' › ' + it.e.h : it.e.p;
      var x = document.createElement('span'); x.className = 'search-snippet'; x.textContent = snippet(it, words);
      a.appendChild(t); a.appendChild(x); li.appendChild(a); list.appendChild(li);
    });
    list.hidden = false;
  }

  function move(d) {
    var items = list.querySelectorAll('a');
    if (!items.length) return;
    active = (active + d + items.length) % items.length;
    items.forEach(function (a, i) { a.classList.toggle('active', i === active); });
    items[active].scrollIntoView({block: 'nearest'});
  }

  input.addEventListener('input', function () { show(input.value); });
  input.addEventListener('keydown', function (ev) {
    if (ev.key === 'ArrowDown') { move(1); ev.preventDefault(); }
    else if (ev.key === 'ArrowUp') { move(-1); ev.preventDefault(); }
    else if (ev.key === 'Enter') {
      var items = list.querySelectorAll('a');
      if (items.length) { window.location.href = items[Math.max(active, 0)].href; ev.preventDefault(); }
    } else if (ev.key === 'Escape') { list.hidden = true; input.blur(); }
  });
  document.addEventListener('click', function (ev) {
    if (!ev.target.closest('.search')) list.hidden = true;
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === '/' && document.activeElement !== input && !/input|textarea/i.test(document.activeElement.tagName)) {
      input.focus(); ev.preventDefault();
    }
  });
  window.__docs = window.__docs || {};
  window.__docs.search = function (q) { input.value = q; show(q); return [].map.call(list.querySelectorAll('a'), function (a) { return a.getAttribute('href'); }); };
})();
