// The web window's only script (the pages' Content-Security-Policy runs no other): the reader's
// own local time beside each moment, boards that zoom and name their provinces, and the order
// box's answers, with the typed orders drawn on the board. Everything it writes into a page goes
// in as text, never as markup, but for the board's marks: SVG the judge drew, read as XML (no
// script runs from it) and put in place of the board's own.
"use strict";

function localTimes() {
  const format = new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric", month: "short",
    year: "numeric", hour: "2-digit", minute: "2-digit"});
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const node of document.querySelectorAll("time[data-local]")) {
    const at = new Date(node.getAttribute("datetime"));
    if (isNaN(at) || !zone || zone === node.getAttribute("data-zone")) continue;  // the reader's zone already
    const local = document.createElement("span");
    local.className = "local-time";
    local.textContent = " (your time: " + format.format(at) + ", " + zone + ")";
    node.after(local);
  }
}

function zoomable(figure) {
  const svg = figure.querySelector(".viewport > svg");
  if (!svg) return;
  const whole = svg.viewBox.baseVal;
  const full = {x: whole.x, y: whole.y, width: whole.width, height: whole.height};
  let view = Object.assign({}, full);
  const show = () => svg.setAttribute("viewBox", [view.x, view.y, view.width, view.height].join(" "));
  const clamp = () => {
    view.width = Math.min(full.width, Math.max(full.width / 10, view.width));
    view.height = view.width * full.height / full.width;
    view.x = Math.min(full.x + full.width - view.width, Math.max(full.x, view.x));
    view.y = Math.min(full.y + full.height - view.height, Math.max(full.y, view.y));
  };
  const zoom = (factor, cx, cy) => {  // (cx, cy): the point that stays put, as fractions of the view
    const width = view.width / factor;
    view.x += (view.width - width) * cx;
    view.y += (view.height - width * full.height / full.width) * cy;
    view.width = width;
    clamp();
    show();
  };
  for (const button of figure.querySelectorAll("[data-zoom]")) {
    button.addEventListener("click", () => {
      const how = button.getAttribute("data-zoom");
      if (how === "reset") { view = Object.assign({}, full); show(); }
      else zoom(how === "in" ? 1.5 : 1 / 1.5, 0.5, 0.5);
    });
  }
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    zoom(event.deltaY < 0 ? 1.25 : 0.8, (event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
  }, {passive: false});
  let drag = null;
  svg.addEventListener("pointerdown", (event) => {
    drag = {x: event.clientX, y: event.clientY, view: Object.assign({}, view)};
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const box = svg.getBoundingClientRect();
    view.x = drag.view.x - (event.clientX - drag.x) * view.width / box.width;
    view.y = drag.view.y - (event.clientY - drag.y) * view.height / box.height;
    clamp();
    show();
  });
  const stop = () => { drag = null; };
  svg.addEventListener("pointerup", stop);
  svg.addEventListener("pointercancel", stop);
  const label = figure.querySelector(".province-name");
  svg.addEventListener("pointerover", (event) => {
    const province = event.target.closest && event.target.closest("[data-name]");
    if (label) label.textContent = province ? province.getAttribute("data-name") : "";
  });
}

function drawMarks(figure, marks) {
  // The board's marks (orders, units, removals) drawn with the typed orders, in place of its own.
  const svg = figure && figure.querySelector(".viewport > svg");
  const old = svg && svg.querySelector("g.marks");
  if (!old || !marks) return;
  const read = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + marks + "</svg>",
    "image/svg+xml");
  const fresh = read.querySelector("parsererror") ? null : read.documentElement.querySelector("g.marks");
  if (fresh) old.replaceWith(document.importNode(fresh, true));
}

function orderBox(box) {
  const list = box.parentElement.querySelector("ol.checked");
  const would = box.parentElement.querySelector("pre.would");
  const board = document.querySelector("figure[data-typed]");
  let timer = null;
  let asked = 0;
  const show = (answer) => {
    if (typeof answer.marks === "string") drawMarks(board, answer.marks);
    list.replaceChildren();
    for (const line of answer.lines || []) {
      const item = document.createElement("li");
      item.className = line.ok ? "ok" : "bad";
      const typed = document.createElement("span");
      typed.className = "typed";
      typed.textContent = line.text;
      item.append(typed);
      for (const text of line.answer) {
        const said = document.createElement("span");
        said.className = "said";
        said.textContent = text;
        item.append(said);
      }
      list.append(item);
    }
    const summary = answer.summary || [];
    would.textContent = answer.error ? answer.error : (summary.length ? "Sent now, these lines would leave:\n" + summary.join("\n") : "");
  };
  const check = async () => {
    const mine = ++asked;
    const response = await fetch(box.getAttribute("data-check"), {
      method: "POST", credentials: "same-origin",
      headers: {"content-type": "application/json", "x-csrf-token": box.getAttribute("data-csrf")},
      body: JSON.stringify({text: box.value}),
    });
    const answer = await response.json().catch(() => ({error: "no answer"}));
    if (mine === asked) show(answer);  // an older answer never overwrites a newer one
  };
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  });
  if (board) check();  // the orders as they stand, drawn on the board
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes();
  document.querySelectorAll("figure.zoomable").forEach(zoomable);
  document.querySelectorAll("textarea[data-check]").forEach(orderBox);
});
