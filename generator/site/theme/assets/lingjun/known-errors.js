/* Known error lines in the search box.
 * A line pasted into the search is looked up by the literal text of the error signatures' patterns
 * (troubleshooting/patterns.json, which the site build writes from them): a line holding a pattern's
 * literal, the text lingjun-check --log looks for first, names its signature, listed above the
 * search results with a link to its entry.  Full-text search alone ranks a whole pasted line poorly
 * (time stamps, host names and common words).  The patterns' regular expressions, which narrow the
 * match in the checker under a time limit, are not run here: a browser cannot stop a backtracking
 * expression, and Python's and JavaScript's dialects differ; so the box says "possible" where a
 * literal alone names several entries.  Text is inserted with textContent only. */
(function () {
  "use strict";
  var patterns = null;
  var loading = null;
  var base = ".";

  function config() {
    var node = document.getElementById("__config");
    if (!node) { return; }
    try { base = JSON.parse(node.textContent).base || "."; } catch (e) { base = "."; }
  }

  function load() {
    if (patterns !== null) { return Promise.resolve(patterns); }
    if (loading !== null) { return loading; }
    loading = fetch(base + "/troubleshooting/patterns.json").then(function (r) {
      return r.ok ? r.json() : [];
    }).catch(function () { return []; }).then(function (list) {
      patterns = (Array.isArray(list) ? list : []).map(function (p) {
        return { literal: String(p.literal || ""), url: String(p.url || ""), title: String(p.title || "") };
      }).filter(function (p) { return p.literal && p.url; });
      return patterns;
    });
    return loading;
  }

  function matches(line) {
    var seen = {};
    var out = [];
    (patterns || []).forEach(function (p) {
      if (seen[p.url] || line.indexOf(p.literal) < 0) { return; }
      seen[p.url] = true;
      out.push(p);
    });
    return out;
  }

  function box() {
    var result = document.querySelector(".md-search-result");
    if (!result) { return null; }
    var node = result.querySelector(".lj-known-errors");
    if (!node) {
      node = document.createElement("div");
      node.className = "lj-known-errors";
      node.setAttribute("data-lj-known-errors", "");
      result.insertBefore(node, result.firstChild);
    }
    return node;
  }

  function show(line) {
    var node = box();
    if (!node) { return; }
    while (node.firstChild) { node.removeChild(node.firstChild); }
    var found = line.length >= 4 ? matches(line) : [];
    node.hidden = found.length === 0;
    if (!found.length) { return; }
    var label = document.createElement("p");
    label.className = "lj-known-errors__label";
    var zh = document.documentElement.lang === "zh";
    label.textContent = found.length > 1 ? (zh ? "可能的已知错误行：" : "Possible known error lines:")
                                         : (zh ? "已知错误行：" : "Known error line:");
    node.appendChild(label);
    var list = document.createElement("ul");
    found.forEach(function (p) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = base + "/" + p.url;
      link.textContent = p.title;
      item.appendChild(link);
      list.appendChild(item);
    });
    node.appendChild(list);
  }

  function attach() {
    config();
    var input = document.querySelector("input.md-search__input, [data-md-component=search-query]");
    if (!input || input.getAttribute("data-lj-known-errors")) { return; }
    input.setAttribute("data-lj-known-errors", "1");
    input.addEventListener("input", function () {
      var line = input.value;
      load().then(function () { if (input.value === line) { show(line); } });
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(attach);  // Material's instant navigation swaps pages without a reload
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", attach);
  } else {
    attach();
  }
})();
