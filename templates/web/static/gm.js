// The web window's only script (the pages' Content-Security-Policy runs no other): times in the
// reader's own zone, boards that zoom and name their provinces, and the order box's answers.
// Everything it writes into a page goes in as text, never as markup.
"use strict";

function localTimes() {
  const format = new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric", month: "short",
    year: "numeric", hour: "2-digit", minute: "2-digit"});
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const node of document.querySelectorAll("time[data-local]")) {
    const at = new Date(node.getAttribute("datetime"));
    if (isNaN(at)) continue;
    node.title = node.textContent;  // the game's own zone, as the mails give it
    node.textContent = format.format(at) + (zone ? " (" + zone + ")" : "");
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

function orderBox(box) {
  const list = box.parentElement.querySelector("ol.checked");
  const would = box.parentElement.querySelector("pre.would");
  let timer = null;
  let asked = 0;
  const show = (answer) => {
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
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes();
  document.querySelectorAll("figure.zoomable").forEach(zoomable);
  document.querySelectorAll("textarea[data-check]").forEach(orderBox);
});
