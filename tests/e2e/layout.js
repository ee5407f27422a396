// What the layout tests ask of a page, run in it: whether it scrolls sideways, and every pair
// of visible leaf elements (no element inside) whose boxes overlap, each box cut to the scroll
// boxes around it. Inline elements count line by line (getClientRects).
() => {
  const clipOf = (el) => {
    let clip = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") {
        const r = p.getBoundingClientRect();
        clip = { left: Math.max(clip.left, r.left), top: Math.max(clip.top, r.top),
          right: Math.min(clip.right, r.right), bottom: Math.min(clip.bottom, r.bottom) };
      }
    }
    return clip;
  };
  const name = (el) => {
    const bits = [el.tagName.toLowerCase()];
    for (const a of el.attributes) if (a.name.startsWith("data-") || a.name === "class") bits.push(`[${a.name}="${a.value}"]`);
    return bits.join("") + ` "${(el.textContent || "").trim().slice(0, 20)}"`;
  };
  const boxes = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el.children.length || ["SCRIPT", "OPTION", "BR"].includes(el.tagName)) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue; // also a closed <details>
    const clip = clipOf(el);
    for (const r of el.getClientRects()) {
      const box = { left: Math.max(r.left, clip.left), top: Math.max(r.top, clip.top),
        right: Math.min(r.right, clip.right), bottom: Math.min(r.bottom, clip.bottom) };
      if (box.right - box.left > 0.5 && box.bottom - box.top > 0.5) boxes.push([el, box]);
    }
  }
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a === b) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) overlaps.push(`${name(a)} / ${name(b)}`);
    }
  }
  const cut = boxes.filter(([, r]) => r.right > innerWidth + 1 || r.left < -1).map(([el]) => name(el));
  return { scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
    overlaps: overlaps.slice(0, 20), cut: cut.slice(0, 20), leaves: boxes.length };
}
