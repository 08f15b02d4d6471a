/* The VPC addresses of a release page (div.lj-vpc, release.md.j2): a region chooser above them fills
 * {region-id} in every address, so the address to copy is the one for the reader's region.  The ids the
 * family's pages use (Family.vpc_regions) are offered; any id of Alibaba Cloud's form may be typed.  An id
 * that is not of that form leaves the addresses as published, with {region-id}, and says why.  The choice is
 * remembered in localStorage.  Text is set with textContent only; without JavaScript the page keeps the
 * published addresses and its sentence on replacing {region-id}. */
(function () {
  "use strict";
  var VALID = /^[a-z]{2}(-[a-z0-9]+){1,4}$/;
  var LONGEST = 40;  // Family.vpc_regions: the schema's bound
  function valid(value) { return value.length <= LONGEST && VALID.test(value); }
  var KEY = "lingjun-vpc-region";
  function saved() {
    try { var v = window.localStorage.getItem(KEY); return v && valid(v) ? v : ""; } catch (e) { return ""; }
  }
  function remember(value) {
    try { window.localStorage.setItem(KEY, value); } catch (e) { /* private mode: not remembered */ }
  }
  function chooser(box, n) {
    var codes = Array.prototype.slice.call(box.querySelectorAll("pre > code"));
    var published = codes.map(function (c) { return c.textContent; });
    var label = document.createElement("label");
    label.className = "lj-vpc-region";
    label.appendChild(document.createTextNode((box.getAttribute("data-label") || "") + " "));
    var input = document.createElement("input");
    input.type = "text";
    input.maxLength = LONGEST;
    input.spellcheck = false;
    input.autocomplete = "off";
    input.placeholder = "{region-id}";
    var list = document.createElement("datalist");
    list.id = "lj-vpc-regions-" + n;
    (box.getAttribute("data-regions") || "").split(" ").forEach(function (region) {
      if (!region) { return; }
      var option = document.createElement("option");
      option.value = region;
      list.appendChild(option);
    });
    input.setAttribute("list", list.id);
    label.appendChild(input);
    var hint = document.createElement("p");
    hint.className = "lj-vpc-hint";
    hint.textContent = box.getAttribute("data-hint") || "";
    box.insertBefore(hint, box.firstChild);
    box.insertBefore(list, hint);
    box.insertBefore(label, list);
    function show(value) {
      var ok = valid(value);
      input.setAttribute("aria-invalid", value && !ok ? "true" : "false");
      hint.hidden = !(value && !ok);
      codes.forEach(function (code, i) {
        code.textContent = ok ? published[i].split("{region-id}").join(value) : published[i];
      });
      return ok;
    }
    input.value = saved();
    input.addEventListener("input", function () {
      var value = input.value.trim();
      if (show(value)) { remember(value); }
      // every other chooser of the page (one per image) follows the region chosen here
      choosers.forEach(function (other) { if (other.input !== input) { other.input.value = input.value; other.show(value); } });
    });
    show(input.value.trim());
    choosers.push({ input: input, show: show });
  }
  var choosers = [];
  function init() {
    choosers = choosers.filter(function (c) { return document.body.contains(c.input); });  // a page left behind
    var boxes = document.querySelectorAll(".lj-vpc");
    for (var n = 0; n < boxes.length; n++) {
      if (boxes[n].getAttribute("data-ready")) { continue; }
      boxes[n].setAttribute("data-ready", "1");
      chooser(boxes[n], n);
    }
  }
  if (typeof document$ !== "undefined" && document$.subscribe) { document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
