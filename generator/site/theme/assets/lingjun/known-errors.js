/* Known error lines in the search box.
 * A line pasted into the search is looked up by the literal text of the error signatures' patterns
 * (troubleshooting/patterns.json, which the site build writes from them): a line holding a pattern's
 * literal, the text lingjun-check --log looks for first, names its signature, listed above the
 * search results with a link to its entry.  Full-text search alone ranks a whole pasted line poorly
 * (time stamps, host names and common words).  The patterns' regular expressions, which narrow the
 * match in the checker under a time limit, are not run here: a browser cannot stop a backtracking
 * expression, and Python's and JavaScript's dialects differ; so the box says "possible" where a
 * literal alone names several entries.
 *
 * A line that shows what an error catalog holds (troubleshooting/catalogs.json, fetched only for a line
 * that may: one naming Xid, NCCL WARN, CUDA, NVML or nvidia-container-cli) also names the catalog's entry, read as lingjun-check
 * --log reads it (checks/knowledge/catalog_lines.py): the line must hold one of the checker's literals, and
 * the checker's own expressions of each printed form, which the build copies into catalogs.json (bounded:
 * no expression backtracks past a few hundred characters), read it: "NVRM: Xid (PCI:...): 79, ..." names
 * Xid 79 (an Xid NVIDIA's catalog does not list, the Xid page); a CUDA or NVML enum name
 * (cudaErrorSystemNotReady, CUDA_ERROR_NO_DEVICE, pynvml's NVMLError_DriverNotLoaded) or a message in one of
 * the forms programs print it ("CUDA error: ...", "Cuda failure 2 'out of memory'", "Error 802: ..." after
 * cudaGetDeviceCount, "Failed to initialize NVML: ...", "(35 vs. 0)", ...) names its code, a printed code
 * first; "file.cc:123 NCCL WARN <message>" names the format string that prints the message, read in one
 * left-to-right pass (conversions such as %s stand for text up to where the next literal part first
 * reads), among the printed file's formats (then the headers') first; the longest literal text wins.  A
 * message no format fits names its file's subsystem.  "nvidia-container-cli: <context>: <message>" names the
 * libnvidia-container message after the CLI's context (a shared helper's message by the context's subsystem), or
 * the context alone.  Text is inserted with textContent only. */
(function () {
  "use strict";
  var patterns = null;
  var loading = null;
  var catalogs = null;
  var catalogsLoading = null;
  var base = ".";

  /* a line that may show a catalog's entry: catalogs.json is fetched for it (its literals then decide) */
  var MAY_SHOW = /xid|nccl warn|cuda|nvml|cublas|cudnn|nvidia-container-cli/i;
  /* where what nvidia-container-cli printed ends in a runtime's quoting of it (catalog_lines._CLI_END) */
  var CLI_END = /\\+n|\n|\\*"/;
  /* printf conversions of NCCL's formats, and the placeholders the extraction writes for a macro between literals
     ({NAME}, {#name}), which print like %s (error_catalogs._CONVERSION); what a numeric conversion prints */
  var CONVERSION = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcspm%])|\{#?[A-Za-z_][A-Za-z0-9_]{0,60}\}/g;
  var NUMBER = { d: "-?\\d{1,20}", i: "-?\\d{1,20}", u: "\\d{1,20}", o: "[0-7]{1,22}",
    x: "(?:0x)?[0-9a-fA-F]{1,16}", X: "(?:0x)?[0-9a-fA-F]{1,16}", p: "(?:0x[0-9a-fA-F]{1,16}|\\(nil\\))",
    e: "\\S{1,40}", E: "\\S{1,40}", f: "\\S{1,40}", g: "\\S{1,40}", G: "\\S{1,40}", c: "." };
  /* words after "CUDA error" that make it prose, not an error (catalog_lines._reads_as_error) */
  var PROSE = ["checking", "check", "checks", "handling", "reporting", "s", "is", "was", "will", "might", "may",
    "can", "could", "messages"];
  var NAME_PREFIXES = ["NVML_ERROR_", "CUDA_ERROR_", "cudaError"];

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

  function text(value) { return value === null || value === undefined ? "" : String(value); }

  function fill(template, values) {
    return text(template).replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? text(values[key]) : all;
    });
  }

  /* an NCCL format as parts (error_catalogs.FormatPattern): literal text ("lit", white space runs folded to one
     blank), numbers ("num", a bounded expression) and strings ("str", up to where the next part first reads); only
     its first line counts; ``length``: its literal text, the more specific of two formats that both fit has more */
  function compileFormat(format) {
    var fmt = format.split("\n")[0];
    var parts = [];
    var at = 0;
    var m;
    function literal(value) {
      var folded = value.replace(/\s+/g, " ");
      if (!folded) { return; }
      var last = parts[parts.length - 1];
      if (last && last.kind === "lit") { last.text += folded; } else { parts.push({ kind: "lit", text: folded }); }
    }
    CONVERSION.lastIndex = 0;
    while ((m = CONVERSION.exec(fmt)) !== null) {
      literal(fmt.slice(at, m.index));
      var conversion = m[5];
      if (conversion === "%") {
        literal("%");
      } else if (conversion === undefined || conversion === "s" || conversion === "m") {
        if (!parts.length || parts[parts.length - 1].kind !== "str") { parts.push({ kind: "str" }); }
      } else {
        parts.push({ kind: "num", at: new RegExp(NUMBER[conversion], "y"), from: new RegExp(NUMBER[conversion], "g") });
      }
      at = m.index + m[0].length;
    }
    literal(fmt.slice(at).replace(/\s+$/, ""));
    var length = 0;
    parts.forEach(function (p) { if (p.kind === "lit") { length += p.text.length; } });
    return { parts: parts, length: length };
  }

  /* whether ``message`` (white space folded, trimmed) is what the format prints, in one left-to-right pass
     (FormatPattern.match); ``whole``: nothing may follow */
  function fits(pattern, message, whole) {
    var parts = pattern.parts;
    var pos = 0;
    for (var i = 0; i < parts.length; i++) {
      var part = parts[i];
      if (part.kind === "lit") {
        var lit = pos === 0 ? part.text.replace(/^\s+/, "") : part.text;
        if (message.slice(pos, pos + lit.length) !== lit) { return false; }
        pos += lit.length;
      } else if (part.kind === "num") {
        part.at.lastIndex = pos;
        if (!part.at.exec(message)) { return false; }
        pos = part.at.lastIndex;
      } else {
        var next = parts[i + 1];
        if (!next) { return true; }
        if (next.kind === "lit") {
          var found = message.indexOf(next.text, pos);
          if (found < 0) { return false; }
          pos = found;
        } else {
          next.from.lastIndex = pos;
          var number = next.from.exec(message);
          if (!number) { return false; }
          pos = number.index;
        }
      }
    }
    return pos >= message.length || !whole;
  }

  /* the checker's expressions (catalogs.json "forms": catalog_lines._FORMS), compiled once; a form the data lacks
     reads nothing */
  function compileForms(raw) {
    var forms = {};
    var sources = raw && typeof raw === "object" ? raw : {};
    Object.keys(sources).forEach(function (name) {
      try { forms[name] = new RegExp(text(sources[name])); } catch (e) { /* a dialect difference: the form is skipped */ }
    });
    return forms;
  }

  function folded(name) { return name.replace(/_/g, "").toLowerCase(); }

  /* how a message another program's wrapper quotes is read (catalogs.json "tail": catalog_lines' _tail); null when
     the data lacks it or a dialect difference keeps an expression from compiling */
  function compileTail(raw) {
    if (!raw || typeof raw !== "object") { return null; }
    try {
      return { words: new RegExp(text(raw.words)), minWords: Number(raw.min_words) || 0,
               context: new RegExp(text(raw.context)), openers: (raw.openers || []).map(text),
               wordChar: new RegExp("^(?:" + text(raw.word_char) + ")$"), minLength: Number(raw.min_length) || 0 };
    } catch (e) { return null; }
  }

  /* ASCII upper case to lower case only, so the folded line keeps the line's length (catalog_lines._ASCII_LOWER) */
  function asciiLower(value) { return value.replace(/[A-Z]/g, function (c) { return c.toLowerCase(); }); }

  /* the catalogs as look-ups: Xid by number, CUDA by (api, code), name and message, NCCL rows with their parts */
  function index(raw) {
    var out = { labels: raw.labels || {}, forms: compileForms(raw.forms), literals: (raw.literals || []).map(text),
                leading: null, tail: compileTail(raw.tail), xid: null, cuda: null, nccl: null };
    try { out.leading = raw.leading_number ? new RegExp(text(raw.leading_number)) : null; } catch (e) { out.leading = null; }
    if (raw.xid && Array.isArray(raw.xid.rows)) {
      out.xid = { url: text(raw.xid.url), byNumber: {} };
      raw.xid.rows.forEach(function (row) { out.xid.byNumber[row[0]] = { xid: row[0], name: text(row[1]) }; });
    }
    if (raw.cuda && Array.isArray(raw.cuda.rows)) {
      var cuda = out.cuda = { url: text(raw.cuda.url), byCode: {}, byName: {}, byFolded: {}, messages: {} };
      var older = [];  // [older name, info]: cuDNN 8's names, each naming its entry unless an entry has it as its own
      raw.cuda.rows.forEach(function (row) {
        var info = { api: text(row[0]), code: row[1], name: text(row[2]), message: text(row[3]) };
        cuda.byCode[info.api + ":" + info.code] = info;
        cuda.byName[info.name] = info;  // the last of a name, as the checker's dict keeps it
        var bare = info.name;
        NAME_PREFIXES.some(function (prefix) {
          if (bare.indexOf(prefix) !== 0) { return false; }
          bare = bare.slice(prefix.length);
          return true;
        });
        var key = info.api + ":" + folded(bare);
        if (!cuda.byFolded[key]) { cuda.byFolded[key] = info; }
        var said = (info.message ? [info.message] : []).concat((row[4] || []).map(text));
        (row[5] || []).forEach(function (name) { older.push([text(name), info]); });
        said.forEach(function (message) {
          (cuda.messages[info.api] = cuda.messages[info.api] || []).push({ message: message, info: info });
        });
      });
      older.forEach(function (pair) {
        if (!Object.prototype.hasOwnProperty.call(cuda.byName, pair[0])) { cuda.byName[pair[0]] = pair[1]; }
      });
      Object.keys(cuda.messages).forEach(function (api) {  // longest first: the most specific message wins
        cuda.messages[api].sort(function (a, b) { return b.message.length - a.message.length; });
      });
    }
    if (raw.nccl && Array.isArray(raw.nccl.rows)) {
      var subs = (raw.nccl.subsystems || []).map(function (s) {
        return { id: text(s[0]), title: text(s[1]), globs: (s[2] || []).map(globRegex) };
      });
      var files = (raw.nccl.files || []).map(function (f) { return { path: text(f[0]), subsystem: subs[f[1]] }; });
      var nccl = out.nccl = { url: text(raw.nccl.url), subsystems: subs, byName: {}, rows: [], pathsByName: {} };
      files.forEach(function (f) {
        var name = baseName(f.path);
        (nccl.pathsByName[name] = nccl.pathsByName[name] || []).push(f.path);
      });
      raw.nccl.rows.forEach(function (row) {
        var file = files[row[1]] || { path: "", subsystem: null };
        var entry = { anchor: "nccl-" + text(row[0]), file: file.path, subsystem: file.subsystem,
                      header: file.path.indexOf("include/") === 0, format: text(row[2]),
                      pattern: compileFormat(text(row[2])) };
        nccl.rows.push(entry);
        var name = baseName(file.path);
        (nccl.byName[name] = nccl.byName[name] || []).push(entry);
      });
    }
    var cli = raw["container-cli"];
    if (cli && Array.isArray(cli.rows)) {
      var cliSubs = (cli.subsystems || []).map(function (s) {
        return { id: text(s[0]), title: text(s[1]), stages: (s[2] || []).map(text) };
      });
      var c = out.cli = { url: text(cli.url), subsystems: cliSubs, contexts: [], messages: [] };
      cli.rows.forEach(function (row) {
        var entry = { anchor: "cli-" + text(row[0]), subsystem: cliSubs[row[1]] || null, format: text(row[2]),
                      file: text(row[4]) };
        var suffix = ": %s";
        if (row[3] && entry.format.slice(-suffix.length) === suffix) {
          entry.stage = entry.format.slice(0, -suffix.length);
          c.contexts.push(entry);
        } else if (!row[3]) {
          entry.pattern = compileFormat(entry.format);
          if (entry.pattern.length >= 3) { c.messages.push(entry); }
        }
      });
      /* longest first, the catalog's order among equals (a stable sort, as Python's) */
      c.contexts = c.contexts.map(function (e, i) { return [e, i]; }).sort(function (a, b) {
        return (b[0].stage.length - a[0].stage.length) || (a[1] - b[1]);
      }).map(function (pair) { return pair[0]; });
    }
    return out;
  }

  function baseName(path) { return path.slice(path.lastIndexOf("/") + 1); }

  /* fnmatch's pattern as an expression: ``*`` any text (``/`` too), ``?`` one character, ``[seq]``, ``[!seq]`` */
  function globRegex(glob) {
    var pattern = text(glob);
    var out = "";
    for (var i = 0; i < pattern.length; i++) {
      var c = pattern.charAt(i);
      var close = c === "[" ? pattern.indexOf("]", i + 2) : -1;
      if (c === "*") {
        out += ".*";
      } else if (c === "?") {
        out += ".";
      } else if (close > 0) {
        var inner = pattern.slice(i + 1, close).replace(/\\/g, "\\\\");
        out += "[" + (inner.charAt(0) === "!" ? "^" + inner.slice(1) : inner.replace(/^\^/, "\\^")) + "]";
        i = close;
      } else {
        out += c.replace(/[.+^${}()|[\]\\\/*?-]/g, "\\$&");
      }
    }
    return new RegExp("^" + out + "$");
  }

  function loadCatalogs() {
    if (catalogs !== null) { return Promise.resolve(catalogs); }
    if (catalogsLoading !== null) { return catalogsLoading; }
    catalogsLoading = fetch(base + "/troubleshooting/catalogs.json").then(function (r) {
      return r.ok ? r.json() : {};
    }).catch(function () { return {}; }).then(function (raw) {
      catalogs = index(raw && typeof raw === "object" && raw.format === 1 ? raw : {});
      return catalogs;
    });
    return catalogsLoading;
  }

  /* a line of this many words or more may be a CUDA message alone, which the catalogs hold (catalog_lines'
     _STANDALONE_WORDS); a shorter one stands alone only by naming CUDA, PTX, a GPU, MPS, NVLink or ECC */
  var MESSAGE_WORDS = 5;
  var NAMES_CUDA = /ptx|gpu|mps|nvlink|ecc/i;

  function wantsCatalogs(line) {
    return MAY_SHOW.test(line) || NAMES_CUDA.test(line) || trim(line).split(/\s+/).length >= MESSAGE_WORDS;
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

  /* --- the catalogs' entries of a line (catalog_lines.recognise) ---------------------------------------- */

  function xidEntry(line, cat) {
    var m = cat.forms.xid ? cat.forms.xid.exec(line) : null;
    if (!m || !cat.xid) { return null; }
    var number = parseInt(m[2] || m[3], 10);
    var info = cat.xid.byNumber[number];
    if (!info) {
      return { url: cat.xid.url, title: fill(cat.labels.xid_unknown, { xid: number }), key: "xid:" + number };
    }
    return { url: cat.xid.url + "#xid-" + number, title: fill(cat.labels.xid, { xid: number, name: info.name }),
             key: "xid:" + number };
  }

  /* the format that printed ``message``, or null; the longest literal text wins, a format with none ("%s") names
     no line.  A line naming a file the catalog knows: among that file's formats (the message may go on), then the
     headers' (a macro prints where it is used); another file or none: among all, the whole message
     (nccl_warning) */
  function ncclWarning(cat, file, message) {
    var said = message.replace(/\s+/g, " ").replace(/^ | $/g, "");
    var name = file ? baseName(file) : "";
    var known = !!name && Object.prototype.hasOwnProperty.call(cat.nccl.byName, name);
    var places = known ? [[name, false], ["", true]] : [["", false]];
    for (var k = 0; k < places.length; k++) {
      var rows = places[k][0] ? cat.nccl.byName[places[k][0]] : cat.nccl.rows;
      var best = null;
      for (var i = 0; i < rows.length; i++) {
        var row = rows[i];
        if (places[k][1] && !row.header) { continue; }
        var p = row.pattern;
        if (p.length && fits(p, said, !known) && (best === null || p.length > best.pattern.length)) { best = row; }
      }
      if (best !== null) { return best; }
    }
    return null;
  }

  /* the first subsystem one of whose file patterns matches ``path`` */
  function owner(cat, path) {
    var subs = cat.nccl.subsystems;
    for (var i = 0; i < subs.length; i++) {
      if (subs[i].globs.some(function (re) { return re.test(path); })) { return subs[i]; }
    }
    return null;
  }

  /* the subsystem of a printed file: a path relative to NCCL's src/, or a bare name (a log quoted short), which
     names the subsystem of the catalog's paths of that name when they all have the same (subsystem_of) */
  function subsystemOf(cat, file) {
    var paths = file.indexOf("/") < 0 ? cat.nccl.pathsByName[file] : null;
    if (!paths) { return owner(cat, file); }
    var owners = paths.map(function (path) { return owner(cat, path); });
    return owners.every(function (sub) { return sub === owners[0]; }) ? owners[0] : null;
  }

  function ncclEntry(line, cat) {
    if (!cat.nccl || !cat.forms.nccl || line.indexOf("NCCL WARN") < 0) { return null; }
    var m = cat.forms.nccl.exec(line);
    if (!m) { return null; }
    var file = m[1] || "";
    var info = ncclWarning(cat, file, m[3].replace(/^\s+|\s+$/g, ""));
    var labels = cat.labels;
    if (info) {
      return { url: cat.nccl.url + "#" + info.anchor, key: "nccl:" + info.anchor,
               title: fill(labels.nccl, { subsystem: info.subsystem ? info.subsystem.title : "", format: info.format }) };
    }
    var sub = file ? subsystemOf(cat, file) : null;
    if (sub) {
      return { url: cat.nccl.url + "#nccl-" + sub.id, key: "nccl-file:" + sub.id,
               title: fill(labels.nccl_subsystem, { subsystem: sub.title }) };
    }
    return { url: cat.nccl.url, key: "nccl-unknown", title: text(labels.nccl_unknown) };
  }

  /* the context and message of what follows "nvidia-container-cli: " (ErrorCatalogs.container_cli) */
  function cliMessage(cat, said) {
    var cli = cat.cli;
    var context = null;
    for (var i = 0; i < cli.contexts.length; i++) {
      if (said.indexOf(cli.contexts[i].stage + ": ") === 0) { context = cli.contexts[i]; break; }
    }
    function best(rest, cliOnly) {
      var folded = rest.replace(/\s+/g, " ").replace(/^ | $/g, "");
      var found = null;
      for (var k = 0; k < cli.messages.length; k++) {
        var row = cli.messages[k];
        if (cliOnly && row.file.indexOf("src/cli/") !== 0) { continue; }
        if (fits(row.pattern, folded, false)) {
          if (cliOnly) { return row; }
          if (found === null || row.pattern.length > found.pattern.length) { found = row; }
        }
      }
      return found;
    }
    if (context === null) {
      var own = best(said, true);
      if (own) { return [null, own]; }
    }
    var rest = context !== null ? said.slice(context.stage.length + 2) : said;
    for (var n = 0; n < 5; n++) {
      var info = best(rest, false);
      if (info) { return [context, info]; }
      var at = rest.indexOf(": ");
      if (at < 0) { break; }
      rest = rest.slice(at + 2);
    }
    return [context, null];
  }

  function cliStageSubsystem(cat, stage) {
    var subs = cat.cli.subsystems;
    for (var i = 0; i < subs.length; i++) { if (subs[i].stages.indexOf(stage) >= 0) { return subs[i]; } }
    return null;
  }

  function cliEntry(line, cat) {
    var form = cat.forms["container-cli"];
    if (!cat.cli || !form || line.indexOf("nvidia-container-cli") < 0) { return null; }
    var m = form.exec(line);
    if (!m) { return null; }
    var said = m[1];
    var end = CLI_END.exec(said);
    said = (end ? said.slice(0, end.index) : said).replace(/^\s+|\s+$/g, "").replace(/[`'.]+$/, "");
    var unknown = ": unknown";
    if (said.slice(-unknown.length) === unknown) { said = said.slice(0, -unknown.length); }
    var found = cliMessage(cat, said);
    var context = found[0], info = found[1];
    if (!context && !info) { return null; }
    var staged = context ? cliStageSubsystem(cat, context.stage) : null;
    if (info) {
      var sub = info.subsystem && info.subsystem.id === "system" && staged ? staged : info.subsystem;
      return { url: cat.cli.url + "#" + info.anchor, key: "container-cli:" + info.anchor,
               title: fill(cat.labels.cli, { subsystem: sub ? sub.title : "", format: info.format }) };
    }
    var own = staged || context.subsystem;
    return { url: cat.cli.url + "#" + context.anchor, key: "container-cli-stage:" + context.anchor,
             title: fill(cat.labels.cli_stage, { stage: context.stage, subsystem: own ? own.title : "" }) };
  }

  function trim(value) { return value.replace(/^\s+|\s+$/g, ""); }

  /* the entry whose message ``said`` starts with (case-insensitive), in the first of ``apis`` holding one
     (cuda_by_message) */
  function byMessage(cuda, said, apis) {
    var lowered = trim(said).toLowerCase();
    for (var a = 0; a < apis.length; a++) {
      var rows = cuda.messages[apis[a]] || [];
      for (var i = 0; i < rows.length; i++) {
        if (lowered.slice(0, rows[i].message.length) === rows[i].message.toLowerCase()) { return rows[i].info; }
      }
    }
    return null;
  }

  /* the entry named ``name``; with ``api``, also a name written another way (NVMLError_DriverNotLoaded) */
  function byName(cuda, name, api) {
    if (Object.prototype.hasOwnProperty.call(cuda.byName, name)) { return cuda.byName[name]; }
    return api ? cuda.byFolded[api + ":" + folded(name)] || null : null;
  }

  /* the entry whose message ``said`` shows: itself, after a number that opens it, each quoted part, then an
     enum-like name (catalog_lines._message) */
  function messageInfo(cat, said, apis) {
    var cuda = cat.cuda;
    apis = apis || ["runtime", "driver"];
    var candidates = [said, cat.leading ? said.replace(cat.leading, "") : said];
    var quoted = /'([^']{3,300})'/g;
    var q;
    while ((q = quoted.exec(said)) !== null) { candidates.push(q[1]); }
    for (var i = 0; i < candidates.length; i++) {
      var candidate = trim(candidates[i]);
      if (!candidate) { continue; }
      var info = byMessage(cuda, candidate.replace(/^['"]+|['"]+$/g, ""), apis);
      if (info) { return info; }
    }
    var word = /^\s*([A-Z][A-Za-z]{2,60})\b/.exec(said);
    return word && apis.length === 1 ? byName(cuda, word[1], apis[0]) : null;
  }

  function leadingNumber(cat, said) {
    var m = cat.leading ? cat.leading.exec(trim(said)) : null;
    return m ? parseInt(m[1], 10) : null;
  }

  function readsAsError(words) {
    var first = words.split(/\s+/).filter(Boolean)[0];
    return !!first && PROSE.indexOf(first.toLowerCase()) < 0;
  }

  /* the printed forms, most specific first; the first that reads the line decides (catalog_lines._READERS) */
  var READERS = [
    ["driver", function (m, line, cat, add) { add(messageInfo(cat, m[1], ["driver", "runtime"]), "driver", null); return true; }],
    ["nccl-cu", function (m, line, cat, add) {  // NCCL's CUCHECK: a CUresult and cuGetErrorString's text
      var number = parseInt(m[1], 10);
      add(cat.cuda.byCode["driver:" + number] || messageInfo(cat, m[2], ["driver"]), "driver", number);
      return true;
    }],
    ["old", function (m, line, cat, add) {  // torch's THC errors: the message decides, the number only names it
      var number = m[1] ? m[1] : m[3];
      var info = messageInfo(cat, m[1] ? m[2] : m[4], ["runtime"]);
      add(info, "runtime", info ? null : parseInt(number, 10));
      return true;
    }],
    ["failed-with", function (m, line, cat, add) { add(messageInfo(cat, m[1]), "runtime", null); return true; }],
    ["returned", function (m, line, cat, add) {
      var value = m[2];
      add(null, "runtime", /^0x/i.test(value) ? parseInt(value, 16) : parseInt(value, 10));
      return true;
    }],
    ["init-failure", function (m, line, cat, add) {  // Ollama: cuInit's CUresult, or cudaSetDevice's cudaError_t
      add(null, m[1] === "cudart" ? "runtime" : "driver", parseInt(m[2], 10));
      return true;
    }],
    ["samples", function (m, line, cat, add) {  // the CUDA samples: (error code MESSAGE), a message the catalog holds
      var info = messageInfo(cat, m[1]);
      if (!info) { return false; }
      add(info, "runtime", null);
      return true;
    }],
    ["nvml", function (m, line, cat, add) { add(messageInfo(cat, m[1], ["nvml"]), "nvml", null); return true; }],
    ["init", function (m, line, cat, add) {  // torch's start-up warning after cudaGetDeviceCount()
      if (line.indexOf("cudaGetDeviceCount") < 0 && line.indexOf("CUDA initialization") < 0) { return false; }
      var number = parseInt(m[1], 10);
      add(cat.cuda.byCode["runtime:" + number] || messageInfo(cat, m[2]), "runtime", number);
      return true;
    }],
    ["cuda", function (m, line, cat, add) {  // a printed code decides, else the message
      var said = trim(m[3]);
      var number = m[1] || m[2] ? parseInt(m[1] || m[2], 10) : leadingNumber(cat, said);
      var info = number !== null ? cat.cuda.byCode["runtime:" + number] || null : null;
      info = info || (said ? messageInfo(cat, said) : null);
      if (!info && number === null && !readsAsError(said.replace(/^'+|'+$/g, ""))) { return false; }
      add(info, "runtime", number);
      return true;
    }],
    ["versus", function (m, line, cat, add) {  // a status compared with cudaSuccess: (35 vs. 0)
      if (line.toLowerCase().indexOf("cuda") < 0) { return false; }
      add(null, "runtime", parseInt(m[1], 10));
      return true;
    }]
  ];

  /* the runtime or driver entry whose message the line holds between word boundaries, longest first, runtime first:
     anywhere for a message that stands alone, else after an opener on a line naming CUDA (catalog_lines._tail) */
  function tailInfo(line, cat) {
    var rules = cat.tail;
    if (!rules || !cat.cuda) { return null; }
    var lowered = asciiLower(line);
    var context = null;
    function bounded(start, end) {
      return (start === 0 || !rules.wordChar.test(lowered.charAt(start - 1))) &&
             (end === lowered.length || !rules.wordChar.test(lowered.charAt(end)));
    }
    var apis = ["runtime", "driver"];
    for (var a = 0; a < apis.length; a++) {
      var rows = cat.cuda.messages[apis[a]] || [];
      for (var i = 0; i < rows.length; i++) {
        var message = rows[i].message;
        if (trim(message).length < rules.minLength) { continue; }
        var wanted = asciiLower(message);
        var alone = rules.words.test(message) || trim(message).split(/\s+/).length >= rules.minWords;
        for (var at = lowered.indexOf(wanted); at >= 0; at = lowered.indexOf(wanted, at + 1)) {
          var end = at + wanted.length;
          if (!bounded(at, end)) { continue; }
          if (alone) { return rows[i].info; }
          if (context === null) { context = rules.context.test(line.slice(0, at) + line.slice(end)); }
          var before = line.slice(0, at).replace(/\s+$/, "");
          if (context && rules.openers.indexOf(before.slice(-1)) >= 0 && before.length) { return rows[i].info; }
        }
      }
    }
    return null;
  }

  function findAll(re, line) {
    var all = new RegExp(re.source, "g");
    var out = [];
    var m;
    while ((m = all.exec(line)) !== null) {
      out.push(m[1]);
      if (m[0] === "") { all.lastIndex += 1; }
    }
    return out;
  }

  /* the CUDA and NVML codes a line shows: by enum name, then by the number and message of each printed form */
  function cudaInfos(line, cat, tail) {
    var cuda = cat.cuda;
    var out = [];
    function add(info, api, number) {
      if (!info && number !== null) { info = cuda.byCode[api + ":" + number] || null; }
      if (info && out.indexOf(info) < 0) { out.push(info); }
    }
    if (cat.forms.name) {
      findAll(cat.forms.name, line).forEach(function (name) { add(byName(cuda, name, null), null, null); });
    }
    if (cat.forms.pynvml) {
      findAll(cat.forms.pynvml, line).forEach(function (name) { add(byName(cuda, name, "nvml"), null, null); });
    }
    if (out.length) { return out; }
    for (var i = 0; i < READERS.length; i++) {
      var form = cat.forms[READERS[i][0]];
      var m = form ? form.exec(line) : null;
      if (m && READERS[i][1](m, line, cat, add)) { break; }
    }
    if (tail && !out.length) {  // no form named an entry: a message quoted by another program's wrapper
      var tail = tailInfo(line, cat);
      if (tail) { out.push(tail); }
    }
    return out;
  }

  function cudaEntries(line, cat, tail) {
    if (!cat.cuda) { return []; }
    return cudaInfos(line, cat, tail).map(function (info) {
      var anchor = info.api === "runtime" || info.api === "driver" ? "cuda-" + info.api + "-" + info.code
                                                                   : info.api + "-" + info.code;
      var title = info.message ? fill(cat.labels.cuda, { name: info.name, message: info.message, code: info.code })
                               : fill(cat.labels.cuda_no_message, { name: info.name, code: info.code });
      return { url: cat.cuda.url + "#" + anchor, title: title, key: "cuda:" + info.api + ":" + info.code };
    });
  }

  /* every catalog entry the line shows, each once: the Xid, the NCCL warning, the nvidia-container-cli message, the
     CUDA and NVML codes; nothing for a
     line without one of the checker's literals */
  function catalogMatches(line, cat) {
    if (!cat.literals.some(function (literal) { return line.indexOf(literal) >= 0; })) { return []; }
    var found = [xidEntry(line, cat), ncclEntry(line, cat), cliEntry(line, cat)].filter(Boolean);
    found = found.concat(cudaEntries(line, cat, !found.length));  // the message alone only when nothing else read it
    var keys = {};
    return found.filter(function (entry) {
      if (keys[entry.key]) { return false; }
      keys[entry.key] = true;
      return true;
    });
  }

  function lookup(line) {
    if (line.length < 4) { return Promise.resolve({ signatures: [], catalog: [] }); }
    var wanted = [load()];
    if (wantsCatalogs(line)) { wanted.push(loadCatalogs()); }
    return Promise.all(wanted).then(function (loaded) {
      return { signatures: matches(line), catalog: loaded.length > 1 ? catalogMatches(line, loaded[1]) : [] };
    });
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

  function show(found) {
    var node = box();
    if (!node) { return; }
    while (node.firstChild) { node.removeChild(node.firstChild); }
    var all = found.signatures.concat(found.catalog);
    node.hidden = all.length === 0;
    if (!all.length) { return; }
    var label = document.createElement("p");
    label.className = "lj-known-errors__label";
    var zh = document.documentElement.lang === "zh";
    /* several signatures for one literal are possible matches; a catalog entry is named by the line itself */
    label.textContent = found.signatures.length > 1 ? (zh ? "可能的已知错误行：" : "Possible known error lines:")
                                                    : (zh ? "已知错误行：" : "Known error line:");
    node.appendChild(label);
    var list = document.createElement("ul");
    all.forEach(function (p, at) {
      var item = document.createElement("li");
      if (at >= found.signatures.length) { item.className = "lj-known-errors__catalog"; }
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
      lookup(line).then(function (found) { if (input.value === line) { show(found); } });
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
