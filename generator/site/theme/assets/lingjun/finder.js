/* Compatibility finder (finder/ page).
 * The page embeds the verdicts as JSON (#lj-finder-data), computed at build
 * time by the checker's own logic (lingjun.checks.core.release_compat): for
 * every release, GPU class ("dc": data center, "other") and driver branch,
 * a list of [lowest driver of the interval or null, verdict, index into
 * data.reasons (the page's language)].  This script only looks up the interval holding the typed
 * driver (a branch alone, "R535", stands for an up-to-date driver of the
 * branch: the last interval); it never decides compatibility.
 * The answer comes first: per family shown, the release to use (the newest
 * whose verdict is native, else forward-compat) or the driver to install
 * (precomputed per day by lingjun.generator.site.recommend.install_epochs;
 * the last epoch begun on the reader's day), and the typed branch's
 * lifecycle against the reader's day, in the words lingjun-kb which prints
 * (recommend.WORDS).  PPU and base-image families only with the toggle.
 * The selection lives in the address (?driver=&gpu=&product=&arch=&all=1, and
 * release= when the page was opened from a release page).
 * Text is inserted with textContent only. */
(function () {
  "use strict";
  var DRIVER_RE = /^[Rr]?(\d{3,4})((?:\.\d{1,4}){0,2})$/;

  // lingjun.checks.core.gpu_models.lookup_key
  function norm(name) {
    var text = String(name);
    if (text.normalize) { text = text.normalize("NFKC"); }
    var key = text.toLowerCase().replace(/[\s\-_\/(),]+/g, " ").trim();
    if (key === "nvidia") { return ""; }
    return key.indexOf("nvidia ") === 0 ? key.slice(7) : key;
  }

  function parseDriver(text) {
    var m = DRIVER_RE.exec(String(text).trim());
    if (!m) { return null; }
    var rest = m[2] ? m[2].slice(1).split(".").map(Number) : [];
    return { branch: Number(m[1]), parts: [Number(m[1])].concat(rest), branchOnly: rest.length === 0 };
  }

  function cmp(a, b) {
    for (var i = 0; i < 3; i += 1) {
      var x = a[i] || 0, y = b[i] || 0;
      if (x !== y) { return x < y ? -1 : 1; }
    }
    return 0;
  }

  function tails(key) {
    var words = key.split(" ");
    return words.map(function (_, i) { return words.slice(i).join(" "); });
  }

  // the order of lingjun.generator.site.finder.find_gpu: whole name, whole name without blanks, the longest
  // model name the text holds in whole words (as NVML prints it), a distinctive end holding a digit
  function findGpu(gpus, text) {
    var wanted = String(text).length <= 200 ? norm(text) : "";
    if (!wanted) { return null; }
    var squeezed = wanted.replace(/ /g, "");
    var exact = gpus.filter(function (g) { return norm(g.name) === wanted; });
    if (exact.length === 1) { return exact[0]; }
    exact = gpus.filter(function (g) { return norm(g.name).replace(/ /g, "") === squeezed; });
    if (exact.length === 1) { return exact[0]; }
    var best = null, bestLen = 0;
    gpus.forEach(function (g) {
      var key = " " + norm(g.name) + " ";
      if (key.trim() && key.length > bestLen && (" " + wanted + " ").indexOf(key) >= 0) { best = g; bestLen = key.length; }
    });
    if (best) { return best; }
    if (!/[0-9]/.test(wanted)) { return null; }
    var ending = gpus.filter(function (g) {
      return tails(norm(g.name)).some(function (t) { return t === wanted || t.replace(/ /g, "") === squeezed; });
    });
    return ending.length === 1 ? ending[0] : null;
  }

  function pick(intervals, driver) {
    if (driver.branchOnly) { return intervals[intervals.length - 1]; }
    var chosen = intervals[0];
    intervals.slice(1).forEach(function (row) {
      if (row[0] !== null && cmp(driver.parts, row[0].split(".").map(Number)) >= 0) { chosen = row; }
    });
    return chosen;
  }

  // {name} placeholders of a sentence
  function fill(text, values) {
    return String(text).replace(/\{([a-z_]+)\}/g, function (whole, key) {
      return values[key] !== undefined && values[key] !== null ? String(values[key]) : whole;
    });
  }

  // the reader's day, YYYY-MM-DD (the end of life is compared with it, never with the build's)
  function today() {
    var d = new Date();
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  // recommend.install_epochs: the last epoch that has begun on ``day``
  function epoch(epochs, day) {
    var chosen = null;
    (epochs || []).forEach(function (e) { if (e[0] === null || e[0] <= day) { chosen = e; } });
    return chosen && chosen[1] !== null ? chosen : null;
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }

  function init() {
    var root = document.getElementById("lj-finder");
    var dataEl = document.getElementById("lj-finder-data");
    var textEl = document.getElementById("lj-finder-text");
    if (!root || !dataEl || !textEl || root.getAttribute("data-ready")) { return; }
    root.setAttribute("data-ready", "1");
    var data = JSON.parse(dataEl.textContent);
    var texts = JSON.parse(textEl.textContent);
    var tr = function (key) { return texts[key] || key; };
    var inputs = {
      driver: document.getElementById("lj-finder-driver"),
      gpu: document.getElementById("lj-finder-gpu"),
      product: document.getElementById("lj-finder-product"),
      arch: document.getElementById("lj-finder-arch")
    };
    var allFamilies = document.getElementById("lj-finder-all-families");
    var defaults = {};
    (data.families || []).forEach(function (f) { defaults[f.id] = f; });
    var out = document.getElementById("lj-finder-result");
    var params = new URLSearchParams(window.location.search);
    if (allFamilies) { allFamilies.checked = params.get("all") === "1"; }
    Object.keys(inputs).forEach(function (key) {
      var input = inputs[key];
      if (!input) { return; }
      var wanted = params.get(key);
      if (wanted === null) { return; }
      if (input.tagName === "SELECT") {
        if (Array.prototype.some.call(input.options, function (o) { return o.value === wanted; })) { input.value = wanted; }
      } else {
        input.value = wanted.slice(0, 100);
      }
    });

    /* ?release=FAMILY:VERSION (the link on each release page), FAMILY:VERSION#VARIANT or an image tag:
     * only that release, until "all releases" is chosen */
    function releaseOf(wanted) {
      var found = null;
      data.releases.forEach(function (r) {
        if (found) { return; }
        if (r.ref === wanted) { found = r; return; }
        (r.images || []).forEach(function (image) {
          if (image.ref === wanted || image.tags.indexOf(wanted) >= 0) { found = r; }
        });
      });
      return found;
    }
    var onlyRelease = releaseOf(params.get("release"));
    var only = onlyRelease ? onlyRelease.ref : null;

    function writeUrl() {
      var query = new URLSearchParams();
      if (only) { query.set("release", only); }
      if (allFamilies && allFamilies.checked) { query.set("all", "1"); }
      Object.keys(inputs).forEach(function (key) {
        var input = inputs[key];
        if (input && input.value) { query.set(key, input.value); }
      });
      var search = query.toString();
      var url = window.location.pathname + (search ? "?" + search : "") + window.location.hash;
      window.history.replaceState(null, "", url);
    }

    function shown(release) {
      var notes = [];
      if (only && release.ref !== only) { return null; }
      // PPU images and base images only when asked for (lingjun.generator.site.finder.shown_families)
      if (!only && !(allFamilies && allFamilies.checked) && defaults[release.family] && !defaults[release.family].default) {
        return null;
      }
      var product = inputs.product ? inputs.product.value : "";
      var arch = inputs.arch ? inputs.arch.value : "";
      if (product) {
        if (release.not_for.indexOf(product) >= 0) { return null; }
        if (release.products.length === 0) { notes.push(tr("product_not_stated")); }
        else if (release.products.indexOf(product) < 0) { return null; }
      }
      if (arch) {
        if (release.architectures.length === 0) { notes.push(tr("arch_not_stated")); }
        else if (release.architectures.indexOf(arch) < 0) { return null; }
      }
      return notes;
    }

    function message(text) {
      out.textContent = "";
      out.appendChild(el("p", text, "lj-finder-message"));
    }

    function targetText(e) {
      return fill(tr("rec.target"), { branch: e[1], minimum: e[2] });
    }

    /* lingjun.generator.site.recommend.recommend and branch_status, in the same order and words */
    function answer(driver, gpu, byFamily, familyOrder) {
      var day = today();
      var box = el("div", null, "lj-finder-answer");
      box.appendChild(el("h2", tr("answer"), "lj-finder-answer-title"));
      var kinds = ["native", "forward-compat", "install", "no-release", "not-stated", "no-target"];
      var items = [];
      familyOrder.forEach(function (family) {
        if (defaults[family] && !defaults[family].nvidia) { return; }  // PPU images: no recommendation for an NVIDIA GPU
        var rows = byFamily[family];
        var item = null;
        ["native", "forward-compat"].forEach(function (kind) {
          if (item) { return; }
          rows.forEach(function (pair) {
            if (!item && pair[1] === kind) {
              item = { kind: kind, release: pair[0], text: fill(tr("rec." + kind), { version: pair[0].version, family: family, branch: driver.branch }) };
            }
          });
        });
        if (!item && rows.every(function (pair) { return pair[1] === "not-stated"; })) {
          item = { kind: "not-stated", release: null, text: fill(tr("rec.not-stated"), { family: family, branch: driver.branch }) };
        }
        var tooOld = gpu.cuda_predates || {};
        if (!item && !rows[0][0].ppu && rows[0][0].cuda && tooOld[rows[0][0].cuda] !== undefined) {
          // the newest release's CUDA cannot build for the GPU: no driver makes any release run (recommend.recommend)
          item = { kind: "no-release", release: null, text: fill(tr("rec.no-release"), {
            family: family, newest: rows[0][0].version, reason: data.reasons[tooOld[rows[0][0].cuda]] }) };
        }
        if (!item) {
          var newest = rows[0][0];
          var target = epoch((data.installs[gpu.install] || {})[family], day);
          if (target) {
            item = { kind: "install", release: null, text: fill(tr(gpu.data_center ? "rec.install" : gpu.name.indexOf("Jetson ") === 0 ? "rec.install.jetson" : "rec.install.other"), {
              target: targetText(target), family: family, branch: driver.branch, target_branch: "R" + target[1],
              kind: tr(texts["rec.kind." + target[3]] !== undefined ? "rec.kind." + target[3] : "rec.kind.none"), newest: newest.version }) };
          } else {
            item = { kind: "no-target", release: null, text: fill(tr("rec.no-target"), { family: family, branch: driver.branch, newest: newest.version }) };
          }
        }
        item.family = family;
        items.push(item);
      });
      items.sort(function (a, b) { return kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || (a.family < b.family ? -1 : a.family > b.family ? 1 : 0); });
      items.forEach(function (item) {
        var p = el("p", null, "lj-finder-recommendation lj-finder-rec-" + item.kind);
        p.setAttribute("data-family", item.family);
        p.setAttribute("data-kind", item.kind);
        p.appendChild(el("strong", item.family + ": "));
        if (item.release) {
          var a = el("a", item.text);
          a.href = item.release.href;
          p.appendChild(a);
        } else {
          p.appendChild(document.createTextNode(item.text));
        }
        box.appendChild(p);
      });
      var row = (data.lifecycle || {})[String(driver.branch)];
      var values = { branch: driver.branch, today: day };
      var text, past = false;
      if (!row) {
        text = fill(tr("rec.unknown"), values);
      } else {
        values.month = row.eol; values.day = row.eol_day;
        past = row.listed || (row.eol_day !== null && day > row.eol_day);
        if (past) { text = fill(tr(row.eol_day ? "rec.eol.date" : "rec.eol.listed"), values); }
        else if (row.eol_day) { text = fill(tr("rec.supported.date"), values); }
        else { values.kind_note = row.type === "new-feature" ? tr("rec.note.new-feature") : ""; text = fill(tr("rec.supported.none"), values); }
        if (past) {
          var move = epoch((data.installs[gpu.install] || {})[""], day);
          if (move) { text += fill(tr("rec.move"), { target: targetText(move) }); }
        }
      }
      var life = el("p", text, "lj-finder-lifecycle " + (past ? "lj-finder-eol" : row ? "lj-finder-supported" : "lj-finder-unknown"));
      box.appendChild(life);
      return box;
    }

    function render() {
      var driverText = inputs.driver.value.trim();
      var gpuText = inputs.gpu.value.trim();
      if (!driverText || !gpuText) { message(tr("need")); return; }
      var driver = parseDriver(driverText);
      if (!driver) { message(tr("bad_driver")); return; }
      var gpu = findGpu(data.gpus, gpuText);
      if (!gpu) { message(tr("bad_gpu")); return; }
      var unknownBranch = data.branches.indexOf(driver.branch) < 0;
      var cls = gpu.data_center ? "dc" : "other";
      out.textContent = "";
      out.appendChild(el("p", tr("summary").replace("{driver}", driverText).replace("{gpu}", gpu.name)
        .replace("{cc}", gpu.compute_capability).replace("{kind}", tr("kind." + cls)), "lj-finder-summary"));
      var table = el("table", null, "lj-finder-table");
      var head = el("tr");
      ["col.release", "col.verdict", "col.reason"].forEach(function (key) { head.appendChild(el("th", tr(key))); });
      table.appendChild(el("thead")).appendChild(head);
      var body = el("tbody");
      var hidden = 0;
      var byFamily = {}, familyOrder = [];
      data.releases.forEach(function (release) {
        var notes = shown(release);
        if (notes === null) { hidden += 1; return; }
        // the same order as lingjun.generator.site.finder.gpu_lookup
        var row;
        var predates = gpu.predates || {};
        var top = driver.branchOnly ? [driver.branch, 9999, 9999] : driver.parts;
        if (release.ppu) {  // every branch's cell holds the PPU reading
          row = pick(release.cells[cls][String(data.branches[0])], driver);
        } else if (unknownBranch) {
          row = [null, "not-stated", -1];
        } else if (!release.ppu && predates[String(driver.branch)] !== undefined &&
                   cmp(top, gpu.drives_from.split(".").map(Number)) < 0) {
          row = [null, "unsupported", predates[String(driver.branch)]];
        } else if (!release.ppu && release.cuda && (gpu.cuda_predates || {})[release.cuda] !== undefined) {
          row = [null, "unsupported", gpu.cuda_predates[release.cuda]];  // its CUDA cannot build for the GPU
        } else {
          row = pick(release.cells[cls][String(driver.branch)], driver);
        }
        if (!byFamily[release.family]) { byFamily[release.family] = []; familyOrder.push(release.family); }
        byFamily[release.family].push([release, row[1]]);
        var tr_ = el("tr");
        tr_.setAttribute("data-release", release.ref);
        tr_.setAttribute("data-verdict", row[1]);
        var name = el("td");
        var link = el("a", release.family + " " + release.version);
        link.href = release.href;
        name.appendChild(link);
        /* a release with variants: one verdict (the release's), each variant's tags under its name */
        if ((release.images || []).length > 1) {
          release.images.forEach(function (image) {
            name.appendChild(el("br"));
            name.appendChild(el("small", image.line, "lj-finder-variant"));
          });
        }
        tr_.appendChild(name);
        var verdict = el("td");
        verdict.appendChild(el("span", tr("verdict." + row[1]), "lj-verdict lj-verdict-" + row[1]));
        tr_.appendChild(verdict);
        var reason = el("td", null, "lj-finder-reason");
        var why = row[2] === -1 ? String(data.unknown_branch).replace("{branch}", String(driver.branch)) : data.reasons[row[2]];
        reason.appendChild(document.createTextNode((why || "") + " "));
        notes.forEach(function (note) { reason.appendChild(document.createTextNode(note + " ")); });
        var rule = el("a", tr("rule_link"));
        rule.href = data.rule_href;
        reason.appendChild(rule);
        tr_.appendChild(reason);
        body.appendChild(tr_);
      });
      table.appendChild(body);
      out.appendChild(answer(driver, gpu, byFamily, familyOrder));
      out.appendChild(el("h2", tr("table_title"), "lj-finder-table-title"));
      var wrap = el("div", null, "lj-finder-wrap");
      wrap.appendChild(table);
      out.appendChild(wrap);
      if (only) {
        var all = el("button", tr("show_all"), "md-button lj-finder-all");
        all.type = "button";
        all.addEventListener("click", function () { only = null; update(); });
        out.appendChild(all);
      } else if (hidden) {
        out.appendChild(el("p", tr("hidden").replace("{n}", String(hidden)), "lj-finder-hidden"));
      }
    }

    /* re-render only when the selection changed: a blur's late "change" event must not rebuild the
     * table (and its buttons) under a click in progress */
    var last = null;
    function state() {
      return JSON.stringify([only, allFamilies ? allFamilies.checked : false].concat(Object.keys(inputs).map(function (key) {
        return inputs[key] ? inputs[key].value : "";
      })));
    }
    function update() {
      var now = state();
      if (now === last) { return; }
      last = now;
      writeUrl();
      render();
    }
    Object.keys(inputs).forEach(function (key) {
      var input = inputs[key];
      if (!input) { return; }
      input.addEventListener("input", update);
      input.addEventListener("change", update);
    });
    if (allFamilies) { allFamilies.addEventListener("change", update); }
    var form = root.querySelector("form");
    if (form) { form.addEventListener("submit", function (event) { event.preventDefault(); update(); }); }
    last = state();
    render();
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
