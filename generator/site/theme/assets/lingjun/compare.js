/* Compare any two releases (compare/ page).
 * The page embeds the data as JSON (#lj-compare-data): for each release the
 * component versions and how complete its list is, and for each component
 * the PEP 440 rank of each version and the pairs the ranks do not decide
 * ("kinds": diff.py's version_kind_table), computed at build time with
 * Python's packaging library, so this script never parses versions itself.  A component one side does not list is
 * "added"/"removed" only when that side's list is complete, the entry comes
 * from a component list and the side does not name it in presence_unknown;
 * otherwise it is "not recorded" there, with the reason (or "new" when the
 * newer page says so and the older release is its direct predecessor), as
 * diff.py decides.  An address naming a release the data does not have gets
 * a message, not a comparison.
 * Text is inserted with textContent only. */
(function () {
  "use strict";
  function init() {
    var root = document.getElementById("lj-compare");
    var dataEl = document.getElementById("lj-compare-data");
    if (!root || !dataEl || root.getAttribute("data-ready")) { return; }
    root.setAttribute("data-ready", "1");
    var data = JSON.parse(dataEl.textContent);
    var label = function (key) { return root.getAttribute("data-label-" + key) || key; };
    function select(name, index) {
      var wrap = document.createElement("label");
      wrap.textContent = label(name) + " ";
      var sel = document.createElement("select");
      sel.name = name;
      data.releases.forEach(function (r, i) {
        var opt = document.createElement("option");
        opt.value = r.ref;
        opt.textContent = r.label || (r.family + " " + r.version);
        if (i === index) { opt.selected = true; }
        sel.appendChild(opt);
      });
      wrap.appendChild(sel);
      root.appendChild(wrap);
      return sel;
    }
    if (data.releases.length === 0) { return; }
    var params = new URLSearchParams(window.location.search);
    var oldSel = select("old", Math.min(1, data.releases.length - 1));
    var newSel = select("new", 0);
    /* an address names an entry by its ref: FAMILY:RELEASE, FAMILY:RELEASE#VARIANT (one image of a release
     * with variants) or IMAGE~RUNTIME (one framework runtime); a release with variants named without one
     * opens its first image */
    function resolve(ref) {
      var exact = data.releases.filter(function (r) { return r.ref === ref; });
      if (exact.length) { return exact[0].ref; }
      var images = data.releases.filter(function (r) { return r.release === ref && !r.runtime; });
      return images.length ? images[0].ref : null;
    }
    var badRef = false;
    ["old", "new"].forEach(function (name) {
      var wanted = params.get(name);
      if (!wanted) { return; }
      var found = resolve(wanted);
      if (found) { (name === "old" ? oldSel : newSel).value = found; } else { badRef = true; }
    });
    var allWrap = document.createElement("label");
    var all = document.createElement("input");
    all.type = "checkbox";
    allWrap.appendChild(all);
    allWrap.appendChild(document.createTextNode(" " + label("showall")));
    root.appendChild(allWrap);
    var out = document.createElement("div");
    out.className = "lj-compare-result";
    root.appendChild(out);

    function outside(ref, key) { return ((data.outside || {})[ref] || []).indexOf(key) >= 0; }
    /* A complete list proves absence only of what component lists carry: an
     * entry taken from the features or driver text ("outside") never makes
     * the other side "added" or "removed". */
    function unknownIn(r, id) { return (r.unknown || []).indexOf(id) >= 0; }
    /* Why the side "other" says nothing of an entry the side "has" lists
     * (null: a complete list, so it is absent there). */
    function missingReason(p, other, has) {
      if (unknownIn(other, p.id)) { return "presence-unknown"; }
      if (outside(has.ref, p.key)) { return "outside-list"; }
      /* an image with framework runtimes lists only what they share (diff.py's NotRecorded.runtimes) */
      if (other.shared && !has.shared) { return "runtimes"; }
      if (other.list !== "complete") { return "list-state"; }
      return null;
    }
    /* [kind, reason]; reason only for not-recorded kinds. */
    function kindOf(p, ra, rb, introduced) {
      var a = p.a, b = p.b, why;
      if (a === undefined) {
        why = missingReason(p, ra, rb);
        if (why === null) { return ["added", null]; }
        if (introduced && why === "list-state" && rb.previous === ra.ref) { return ["introduced", null]; }
        return ["not-recorded-old", why];
      }
      if (b === undefined) {
        why = missingReason(p, rb, ra);
        return why === null ? ["removed", null] : ["not-recorded-new", why];
      }
      if (a === b) { return ["unchanged", null]; }
      /* diff.py's version_kind_table: a special (precision, build-tag) pair,
       * else the PEP 440 ranks; a version without a rank is not PEP 440. */
      var table = own(data.kinds, p.id) || {};
      var special = own(own(table.special || {}, a) || {}, b);
      if (special) { return [special, null]; }
      var order = table.order || {}, rankA = own(order, a), rankB = own(order, b);
      if (rankA === undefined || rankB === undefined) { return ["changed", null]; }
      return [rankA < rankB ? "upgraded" : (rankA > rankB ? "downgraded" : "unchanged"), null];
    }
    function own(map, key) {
      return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
    }
    function kindLabel(kind, ra, rb) {
      return label(kind).replace("{old}", ra.version).replace("{new}", rb.version);
    }
    function cssKind(kind) { return kind.indexOf("build-tag") === 0 ? "build-tag" : kind; }
    /* Rows of the comparison, as diff.py builds them: entries are matched per
     * component id and architecture ("id" or "id@arch" keys); an entry for all
     * architectures facing per-architecture entries is compared with each of
     * them and marked "split" (or "merged"), not reported as removed + added. */
    function pairs(va, vb) {
      var groups = {};
      function add(map, side) {
        Object.keys(map).forEach(function (key) {
          var at = key.indexOf("@");
          var id = at > 0 ? key.slice(0, at) : key;
          var arch = at > 0 ? key.slice(at + 1) : "";
          if (!groups[id]) { groups[id] = { a: {}, b: {} }; }
          groups[id][side][arch] = map[key];
        });
      }
      add(va, "a");
      add(vb, "b");
      var rows = [];
      Object.keys(groups).forEach(function (id) {
        var g = groups[id];
        var ka = Object.keys(g.a).sort(), kb = Object.keys(g.b).sort();
        var bareA = ka.length === 1 && ka[0] === "", bareB = kb.length === 1 && kb[0] === "";
        function row(arch, a, b, split) {
          rows.push({ key: arch ? id + "@" + arch : id, id: id, arch: arch, a: a, b: b, split: split });
        }
        if (bareA && kb.length > 0 && kb.indexOf("") < 0) {
          kb.forEach(function (arch) { row(arch, g.a[""], g.b[arch], "split"); });
        } else if (bareB && ka.length > 0 && ka.indexOf("") < 0) {
          ka.forEach(function (arch) { row(arch, g.a[arch], g.b[""], "merged"); });
        } else {
          ka.concat(kb.filter(function (k) { return !(k in g.a); })).sort().forEach(function (arch) {
            row(arch, g.a[arch], g.b[arch], null);
          });
        }
      });
      /* by display name, as diff.py sorts: the rows of one component stay together */
      function sortKey(r) { return (data.names[r.id] || r.id).toLowerCase() + "\u0000" + r.id + "\u0000" + r.arch; }
      rows.sort(function (x, y) { var kx = sortKey(x), ky = sortKey(y); return kx < ky ? -1 : (kx > ky ? 1 : 0); });
      return rows;
    }
    function cell(row, text, cls) {
      var td = document.createElement("td");
      if (cls) {
        var span = document.createElement("span");
        span.className = cls;
        span.textContent = text;
        td.appendChild(span);
      } else {
        td.textContent = text;
      }
      row.appendChild(td);
    }
    function render() {
      out.textContent = "";
      var a = oldSel.value, b = newSel.value;
      var msg = document.createElement("p");
      /* an address naming no known release: say so instead of comparing something else */
      if (badRef) { badRef = false; msg.className = "lj-compare-badref"; msg.textContent = label("badref"); out.appendChild(msg); return; }
      if (a === b) { msg.textContent = label("same"); out.appendChild(msg); return; }
      var ra = data.releases.filter(function (r) { return r.ref === a; })[0];
      var rb = data.releases.filter(function (r) { return r.ref === b; })[0];
      if (!ra || !rb) { msg.textContent = label("badref"); out.appendChild(msg); return; }
      if (!ra.listed || !rb.listed) { msg.textContent = label("nolist"); out.appendChild(msg); return; }
      var va = data.versions[a], vb = data.versions[b];
      var fresh = (data.introduced || {})[b] || [];
      var table = document.createElement("table");
      var head = document.createElement("tr");
      [label("component"), label("change"), ra.label || (ra.family + " " + ra.version), rb.label || (rb.family + " " + rb.version)].forEach(function (h) {
        var th = document.createElement("th"); th.textContent = h; head.appendChild(th);
      });
      var thead = document.createElement("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = document.createElement("tbody");
      var shown = 0;
      var reasons = ["list-state", "outside-list", "presence-unknown", "runtimes"];
      var oneSided = { "not-recorded-old": {}, "not-recorded-new": {} };
      pairs(va, vb).forEach(function (p) {
        var found = kindOf(p, ra, rb, fresh.indexOf(p.key) >= 0), kind = found[0];
        var name = (data.names[p.key] || data.names[p.id] || p.id) + (p.arch ? label("paren-open") + p.arch + label("paren-close") : "");
        if (kind in oneSided) { (oneSided[kind][found[1]] = oneSided[kind][found[1]] || []).push(name); return; }
        if (kind === "unchanged" && !p.split && !all.checked) { return; }
        var row = document.createElement("tr");
        cell(row, name);
        if (p.split && kind === "unchanged") {
          cell(row, label(p.split), "lj-change lj-split");
        } else {
          cell(row, kindLabel(kind, ra, rb), "lj-change lj-" + cssKind(kind));
          if (p.split) {
            var note = document.createElement("small");
            note.textContent = label(p.split);
            row.lastChild.appendChild(document.createElement("br"));
            row.lastChild.appendChild(note);
          }
        }
        cell(row, p.a === undefined ? "—" : p.a);
        cell(row, p.b === undefined ? "—" : p.b);
        body.appendChild(row);
        shown += 1;
      });
      table.appendChild(body);
      if (shown === 0) { msg.textContent = label("unchanged"); out.appendChild(msg); }
      else { out.appendChild(table); }
      [["not-recorded-old", ra, rb], ["not-recorded-new", rb, ra]].forEach(function (side) {
        reasons.forEach(function (why) {
          var names = oneSided[side[0]][why];
          if (!names) { return; }
          var p = document.createElement("p");
          p.className = "lj-not-recorded-list";
          var lead = label("why-" + why).replace("{release}", side[1].version).replace("{other}", side[2].version)
            .replace("{state}", label("state-" + side[1].list));
          /* no blank after a full-width colon (Chinese page) */
          p.textContent = lead + (/[：]$/.test(lead) ? "" : " ") + names.join(label("list-sep")) + label("sentence-end");
          out.appendChild(p);
        });
      });
    }
    /* The selection lives in the address (?old=..&new=..[&all=1]), so a comparison can be shared and
     * survives a reload; replaceState keeps the back button for pages, not for every pick. Other query
     * parameters and the fragment are kept. */
    if (params.get("all") === "1") { all.checked = true; }
    function remember() {
      var history = window.history, loc = window.location;
      if (!history || !history.replaceState) { return; }
      var query = new URLSearchParams(loc.search);
      query.set("old", oldSel.value);
      query.set("new", newSel.value);
      if (all.checked) { query.set("all", "1"); } else { query.delete("all"); }
      history.replaceState(history.state, "", (loc.pathname || "") + "?" + query.toString() + (loc.hash || ""));
    }
    function changed() { badRef = false; remember(); render(); }
    oldSel.addEventListener("change", changed);
    newSel.addEventListener("change", changed);
    all.addEventListener("change", changed);
    if (!badRef) { remember(); }
    render();
  }
  if (typeof document$ !== "undefined" && document$.subscribe) { document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
