/* Offline search for the docs built by tools/build_docs.py.
   The index (window.__searchIndex, from search-index.js) lists every page and page section:
   {p: page title, h: heading, u: url, d: description, x: prose text, TeX and code left out}.
   Nothing is fetched: the index is a script next to the pages, so search also works from file://.

   Matching is by words: a query word matches a word of the index that equals it or starts with it
   ("tie" finds "ties", "ties" does not find "properties"); every query word must match. Greek letters
   count as their names (α-nDCG is found by "alpha"). Ranking: a word in a page title counts most, then a
   word in a heading, more when it comes early in a short one, then the page's description, then the
   text; a word that is a later part of a compound (nDCG in α-nDCG, map in gm_map) counts half. */
(function () {
  var input = document.getElementById('search-input');
  var list = document.getElementById('search-results');
  if (!input || !list) return;
  var GREEK = {'α': ' alpha ', 'β': ' beta ', 'γ': ' gamma ', 'δ': ' delta ', 'ε': ' epsilon ', 'λ': ' lambda ',
               'μ': ' mu ', 'π': ' pi ', 'ρ': ' rho ', 'σ': ' sigma ', 'τ': ' tau ', 'φ': ' phi ', 'ℓ': ' l '};
  function lower(s) {
    return s.toLowerCase().replace(/[αβγδελμπρστφℓ]/g, function (c) { return GREEK[c].trim(); });
  }
  // the words of a text; a later part of a compound ("ndcg" in "α-nDCG", "map" in "gm_map") is marked weak (w: true)
  function terms(s) {
    var out = [];
    lower(s).split(/[^a-z0-9_-]+/).forEach(function (chunk) {
      var parts = chunk.split(/[_-]+/).filter(Boolean);
      parts.forEach(function (p, i) { out.push({t: p, w: i > 0}); });
    });
    return out;
  }
  function words(s) { return terms(s).map(function (x) { return x.t; }); }
  function counts(ws) { var c = {}; ws.forEach(function (w) { c[w] = (c[w] || 0) + 1; }); return c; }
  var index = (window.__searchIndex || []).map(function (e) {
    var x = words(e.x);
    return {e: e, head: terms(e.h || e.p), page: terms(e.p), desc: terms(e.d), x: counts(x), xs: Object.keys(counts(x))};
  });
  var MAX = 12, active = -1;

  // score of query word w in a field (list of terms): a word beats a part of a compound, which beats a
  // prefix; a word early in a short field counts more
  function field(ts, w, weight) {
    var best = 0;
    for (var i = 0; i < ts.length; i++) {
      var s = ts[i].t === w ? weight * (1 + 0.5 / (1 + i) + 0.25 * Math.min(1, 4 / ts.length)) * (ts[i].w ? 0.5 : 1)
            : ts[i].t.lastIndexOf(w, 0) === 0 ? weight / 3 : 0;
      if (s > best) best = s;
    }
    return best;
  }
  function inText(it, w) {
    if (it.x[w]) return 3 + Math.min(3, it.x[w]);
    for (var i = 0; i < it.xs.length; i++) if (it.xs[i].lastIndexOf(w, 0) === 0) return 1;
    return 0;
  }
  function score(it, qs) {
    var s = 0, isPage = !it.e.h;
    for (var i = 0; i < qs.length; i++) {
      var w = qs[i];
      var one = field(it.head, w, isPage ? 64 : 40) + (isPage ? field(it.desc, w, 8) : field(it.page, w, 5)) + inText(it, w);
      if (!one) return 0;
      s += one;
    }
    return s;
  }

  function snippet(it, qs) {
    var text = it.e.x || it.e.d || '', low = text.toLowerCase(), at = -1;
    for (var i = 0; i < qs.length && at < 0; i++) {
      var m = new RegExp('(^|[^a-z0-9])' + qs[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).exec(low);
      if (m) at = m.index + m[1].length;
    }
    var from = Math.max(0, at - 40);
    if (from > 0) { var sp = text.indexOf(' ', from); if (sp > 0 && sp < at) from = sp + 1; }
    return (from > 0 ? '…' : '') + text.slice(from, from + 150) + (from + 150 < text.length ? '…' : '');
  }

  function results(q) {
    var qs = words(q), hits = [];
    if (!qs.length) return null;
    for (var i = 0; i < index.length; i++) {
      var s = score(index[i], qs);
      if (s > 0) hits.push([s, i]);
    }
    hits.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    return hits.slice(0, MAX).map(function (h) { return index[h[1]]; });
  }

  function show(q) {
    var hits = results(q), qs = words(q);
    list.innerHTML = ''; active = -1;
    if (!hits) { list.hidden = true; return; }
    if (!hits.length) {
      var li = document.createElement('li'); li.className = 'search-none'; li.textContent = 'No results';
      list.appendChild(li);
    }
    hits.forEach(function (it) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = it.e.u;
      var t = document.createElement('span'); t.className = 'search-title';
      t.textContent = it.e.h ? it.e.p + ' › ' + it.e.h : it.e.p;
      var x = document.createElement('span'); x.className = 'search-snippet'; x.textContent = snippet(it, qs);
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
  // for the site check: the result urls and snippets a query gives, as a reader sees them
  window.__docs.search = function (q) { input.value = q; show(q); return [].map.call(list.querySelectorAll('a'), function (a) { return a.getAttribute('href'); }); };
  window.__docs.searchSnippets = function (q) { show(q); return [].map.call(list.querySelectorAll('.search-snippet'), function (s) { return s.textContent; }); };
})();
