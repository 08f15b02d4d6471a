/* Runs generator/site/theme/assets/lingjun/known-errors.js under node with a minimal DOM and prints, for each
 * pasted line, what its box above the search results shows, as JSON:
 *   [{"line": ..., "hidden": bool, "label": text or null, "links": [[href, text, item class], ...]}, ...]
 * followed by "fetched": the files the script asked for, in order.
 * Usage: node run_known_errors.js KNOWN_ERRORS_JS SITE_ROOT LANG LINES_JSON
 * (SITE_ROOT: the built site of one language, holding troubleshooting/patterns.json and catalogs.json; LANG: the
 * page's <html lang>; LINES_JSON: a file holding the list of lines, each typed into the search box in turn).
 * Only the DOM calls known-errors.js makes are implemented. */
"use strict";
var fs = require("fs");
var path = require("path");
var vm = require("vm");
var args = process.argv.slice(2);
var source = fs.readFileSync(args[0], "utf8");
var root = args[1];
var lang = args[2];
var lines = JSON.parse(fs.readFileSync(args[3], "utf8"));

function Node(tag) {
  this.tagName = tag; this.children = []; this.attrs = {}; this._text = ""; this.className = "";
  this.listeners = {}; this.value = ""; this.hidden = false; this.href = ""; this.parentNode = null;
}
Node.prototype.appendChild = function (c) { this.children.push(c); c.parentNode = this; return c; };
Node.prototype.insertBefore = function (c, ref) {
  var at = ref ? this.children.indexOf(ref) : -1;
  if (at < 0) { this.children.push(c); } else { this.children.splice(at, 0, c); }
  c.parentNode = this;
  return c;
};
Node.prototype.removeChild = function (c) {
  var at = this.children.indexOf(c);
  if (at >= 0) { this.children.splice(at, 1); }
  return c;
};
Node.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
Node.prototype.getAttribute = function (k) { return k in this.attrs ? this.attrs[k] : null; };
Node.prototype.addEventListener = function (ev, fn) { (this.listeners[ev] = this.listeners[ev] || []).push(fn); };
Node.prototype.querySelector = function (selector) {
  var name = selector.replace(/^\./, "");
  var stack = this.children.slice();
  while (stack.length) {
    var node = stack.shift();
    if (node.className.split(" ").indexOf(name) >= 0) { return node; }
    stack = node.children.concat(stack);
  }
  return null;
};
Object.defineProperty(Node.prototype, "firstChild", { get: function () { return this.children[0] || null; } });
Object.defineProperty(Node.prototype, "textContent", {
  get: function () { return this._text + this.children.map(function (c) { return c.textContent; }).join(""); },
  set: function (v) { this._text = String(v); this.children = []; }
});

var input = new Node("input");
var result = new Node("div");
result.className = "md-search-result";
var config = new Node("script");
config.textContent = JSON.stringify({ base: "." });
var fetched = [];
var pending = 0;

var document = {
  readyState: "complete",
  documentElement: { lang: lang },
  getElementById: function (id) { return id === "__config" ? config : null; },
  querySelector: function (selector) {
    if (selector.indexOf("md-search__input") >= 0) { return input; }
    if (selector === ".md-search-result") { return result; }
    return null;
  },
  createElement: function (tag) { return new Node(tag); },
  addEventListener: function () {}
};

function fetchFile(url) {
  fetched.push(url);
  pending += 1;
  var file = path.join(root, url.replace(/^\.\//, ""));
  return new Promise(function (resolve) {
    fs.readFile(file, "utf8", function (err, body) {
      pending -= 1;
      if (err) { resolve({ ok: false, json: function () { return Promise.reject(err); } }); return; }
      resolve({ ok: true, json: function () { return Promise.resolve(JSON.parse(body)); } });
    });
  });
}

var sandbox = { document: document, fetch: fetchFile, Promise: Promise, JSON: JSON, console: console };
sandbox.window = sandbox;
vm.createContext(sandbox);
vm.runInContext(source, sandbox, { filename: args[0] });

/* until every file asked for is read, then until the script's promise chains have run */
function settle(times) {
  return new Promise(function (resolve) {
    (function tick(n) {
      if (pending > 0) { setTimeout(function () { tick(n); }, 1); } else if (n <= 0) { resolve(); } else { setImmediate(function () { tick(n - 1); }); }
    })(times);
  });
}

function snapshot(line) {
  var node = result.querySelector(".lj-known-errors");
  if (!node) { return { line: line, hidden: true, label: null, links: [] }; }
  var label = node.children.filter(function (c) { return c.className === "lj-known-errors__label"; })[0];
  var links = [];
  node.children.forEach(function (c) {
    if (c.tagName !== "ul") { return; }
    c.children.forEach(function (item) {
      item.children.forEach(function (a) { links.push([a.href, a.textContent, item.className]); });
    });
  });
  return { line: line, hidden: !!node.hidden, label: label ? label.textContent : null, links: links };
}

(async function () {
  var out = [];
  for (var i = 0; i < lines.length; i++) {
    input.value = lines[i];
    (input.listeners.input || []).forEach(function (fn) { fn({}); });
    await settle(8);
    out.push(snapshot(lines[i]));
  }
  process.stdout.write(JSON.stringify({ results: out, fetched: fetched }));
})();
