// chatlint report: filters and pages the sample of findings embedded as
// JSON. Text goes into the page only through textContent, never as HTML.
(function () {
  "use strict";
  var PAGE = 50;
  var data = JSON.parse(document.getElementById("chatlint-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var ruleSel = $("filter-rule"), sevSel = $("filter-severity"), fileIn = $("filter-file");
  var body = document.querySelector("#findings-table tbody");
  var page = 0, rows = data.findings;

  var sampled = {};
  data.findings.forEach(function (f) { sampled[f.r] = (sampled[f.r] || 0) + 1; });
  data.rules.forEach(function (r, i) {
    if (!sampled[i]) return;
    var o = document.createElement("option");
    o.value = r.id;
    o.textContent = r.id + " (" + r.total.toLocaleString("en-US") + ")";
    ruleSel.appendChild(o);
  });
  var list = $("file-list");
  data.files.slice(0, 1000).forEach(function (f) {
    var o = document.createElement("option");
    o.value = f;
    list.appendChild(o);
  });

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // breakable puts a line-break opportunity after each "/" of a file name
  // or JSON path, so a long one wraps between its parts.
  function breakable(text, cls) {
    var td = el("td", undefined, cls);
    text.split("/").forEach(function (part, i, parts) {
      td.appendChild(document.createTextNode(part + (i < parts.length - 1 ? "/" : "")));
      if (i < parts.length - 1) td.appendChild(document.createElement("wbr"));
    });
    return td;
  }

  function apply() {
    var rule = ruleSel.value, sev = sevSel.value, file = fileIn.value.trim();
    rows = data.findings.filter(function (f) {
      return (!rule || data.rules[f.r].id === rule) &&
        (!sev || f.s === sev) &&
        (!file || data.files[f.f].indexOf(file) >= 0);
    });
    page = 0;
    render();
  }

  function render() {
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    page = Math.min(page, pages - 1);
    var start = page * PAGE, shown = rows.slice(start, start + PAGE);
    body.textContent = "";
    shown.forEach(function (f) {
      var tr = document.createElement("tr");
      tr.appendChild(breakable(data.files[f.f] + ":" + f.l, "mono"));
      var sev = el("td");
      sev.appendChild(el("span", f.s, "badge sev-" + f.s));
      tr.appendChild(sev);
      var r = data.rules[f.r], rc = el("td");
      var a = el("a", r.id);
      a.href = "#" + r.anchor;
      rc.appendChild(a);
      tr.appendChild(rc);
      var msg = el("td", f.m);
      if (f.id) msg.title = "record " + f.id;
      tr.appendChild(msg);
      tr.appendChild(breakable(f.p || "", "mono"));
      body.appendChild(tr);
    });
    if (!rows.length) {
      var tr = document.createElement("tr"), td = el("td", data.findings.length ? "No finding matches the filter." : "No findings.", "muted");
      td.colSpan = 5;
      tr.appendChild(td);
      body.appendChild(tr);
    }
    $("match-count").textContent = rows.length.toLocaleString("en-US") + " of " + data.findings.length.toLocaleString("en-US") + " shown findings match";
    $("page-info").textContent = rows.length ? "rows " + (start + 1) + "–" + (start + shown.length) + " of " + rows.length + ", page " + (page + 1) + " of " + pages : "";
    $("prev").disabled = page === 0;
    $("next").disabled = page >= pages - 1;
  }

  ruleSel.addEventListener("change", apply);
  sevSel.addEventListener("change", apply);
  fileIn.addEventListener("input", apply);
  $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
  $("prev").addEventListener("click", function () { page--; render(); });
  $("next").addEventListener("click", function () { page++; render(); });
  Array.prototype.forEach.call(document.querySelectorAll(".show-rule"), function (a) {
    a.addEventListener("click", function () {
      ruleSel.value = a.getAttribute("data-rule");
      sevSel.value = "";
      fileIn.value = "";
      apply();
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".show-file"), function (a) {
    a.addEventListener("click", function () {
      ruleSel.value = "";
      sevSel.value = "";
      fileIn.value = a.getAttribute("data-file");
      apply();
    });
  });
  apply();
})();
