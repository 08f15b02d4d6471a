/* Runs generator/site/theme/assets/lingjun/compare.js under node with a minimal DOM and prints
 * what it rendered as JSON: {"rows": [[name, kind label, old, new], ...], "notes": [...], "message": ...}.
 * Usage: node run_compare.js COMPARE_JS DATA_JSON LABELS_JSON SEARCH [PICK]
 * (LABELS_JSON: {"key": "label"} for the data-label-* attributes; SEARCH: "?old=..&new=..";
 * PICK: "name=value", a select (old, new) set to value and its change event fired after loading).
 * "urls" lists every address compare.js wrote with history.replaceState.
 * Only the DOM calls compare.js makes are implemented. */
"use strict";
var fs = require("fs");
var vm = require("vm");
var args = process.argv.slice(2);
var source = fs.readFileSync(args[0], "utf8");
var dataText = fs.readFileSync(args[1], "utf8");
var labels = JSON.parse(fs.readFileSync(args[2], "utf8"));

function Node(tag) {
  this.tagName = tag; this.children = []; this.attrs = {}; this._text = ""; this.className = "";
  this.listeners = {}; this.value = ""; this.checked = false; this.selected = false;
}
Node.prototype.appendChild = function (c) { this.children.push(c); c.parentNode = this; return c; };
Node.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
Node.prototype.getAttribute = function (k) { return k in this.attrs ? this.attrs[k] : null; };
Node.prototype.addEventListener = function (ev, fn) { (this.listeners[ev] = this.listeners[ev] || []).push(fn); };
Object.defineProperty(Node.prototype, "lastChild", { get: function () { return this.children[this.children.length - 1]; } });
Object.defineProperty(Node.prototype, "textContent", {
  get: function () { return this._text + this.children.map(function (c) { return c.textContent; }).join(""); },
  set: function (v) { this._text = String(v); this.children = []; }
});
/* a <select>: value is one of its options' values, as in a browser (else "") */
function Select() { Node.call(this, "select"); this._value = null; }
Select.prototype = Object.create(Node.prototype);
Object.defineProperty(Select.prototype, "value", {
  get: function () {
    var opts = this.children;
    if (this._value !== null) { return this._value; }
    var sel = opts.filter(function (o) { return o.selected; })[0] || opts[0];
    return sel ? sel.value : "";
  },
  set: function (v) {
    var known = this.children.some(function (o) { return o.value === v; });
    this._value = known ? v : "";
  }
});

var root = new Node("div");
Object.keys(labels).forEach(function (k) { root.setAttribute("data-label-" + k, labels[k]); });
var dataEl = new Node("script");
dataEl._text = dataText;
var document = {
  readyState: "complete",
  getElementById: function (id) { return id === "lj-compare" ? root : (id === "lj-compare-data" ? dataEl : null); },
  createElement: function (tag) { return tag === "select" ? new Select() : new Node(tag); },
  createTextNode: function (t) { var n = new Node("#text"); n._text = String(t); return n; },
  addEventListener: function () {}
};
function walk(n, fn) { fn(n); n.children.forEach(function (c) { walk(c, fn); }); }
var urls = [];
var history = { state: null, replaceState: function (state, title, url) { urls.push(url); } };
var context = { document: document, URLSearchParams: URLSearchParams,
  window: { location: { pathname: "/compare/", search: args[3] || "", hash: "" }, history: history } };
vm.createContext(context);
var result = { error: null };
try {
  vm.runInContext(source, context);
} catch (e) {
  result.error = String(e);
}
if (args[4] && !result.error) {
  var pick = args[4].split("="), found = [];
  walk(root, function (n) { if (n.tagName === "select" && n.name === pick[0]) { found.push(n); } });
  found.forEach(function (sel) {
    sel.value = pick.slice(1).join("=");
    (sel.listeners.change || []).forEach(function (fn) { fn(); });
  });
}
result.urls = urls;
var out = root.children.filter(function (c) { return c.className === "lj-compare-result"; })[0];
result.rows = [];
result.notes = [];
result.message = null;
if (out) {
  walk(out, function (n) {
    if (n.tagName === "tr" && n.parentNode && n.parentNode.tagName === "tbody") {
      result.rows.push(n.children.map(function (td) { return td.textContent; }));
    }
    if (n.tagName === "p" && n.className === "lj-not-recorded-list") { result.notes.push(n.textContent); }
    if (n.tagName === "p" && n.className !== "lj-not-recorded-list" && result.message === null) { result.message = n.textContent; }
  });
}
process.stdout.write(JSON.stringify(result));
