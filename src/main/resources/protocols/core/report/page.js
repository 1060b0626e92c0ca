"use strict";
// shared by the per-run report and the matrix report; a script error is kept on the body for tests
window.addEventListener("error", function (e) {
  document.body.dataset.errors = (document.body.dataset.errors || "") + e.message + "; ";
});
function ms(us) { return us / 1000; }
function fmt(x, digits) { return x === null || x === undefined || Number.isNaN(x) ? "–" : x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }); }
function el(tag, attrs, children) {
  const e = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => { if (k === "text") e.textContent = v; else e.setAttribute(k, v); });
  (children || []).forEach(c => e.appendChild(c));
  return e;
}
function table(headers, rows) {
  const t = el("table");
  t.appendChild(el("tr", {}, headers.map(h => el("th", { text: h, class: typeof h === "string" && h.length > 0 && headers.indexOf(h) === 0 ? "text" : "" }))));
  rows.forEach(r => t.appendChild(r));
  return t;
}

