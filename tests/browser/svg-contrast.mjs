// The contrast of every SVG label in the chapter's figures against what it is drawn on, which
// axe-core does not measure (it reads the CSS background of HTML boxes, not SVG shapes): the
// text's computed fill against the fill of the last opaque SVG rect under its centre that comes
// before it in the drawing, else the page background. WCAG 2 ratio of relative luminances.

/** [{ text, cls, fg, bg, ratio }] for every rendered <text> inside the page's figures. */
export function svgTextContrasts(page) {
  return page.evaluate(() => {
    const rgba = (css) => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1]
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return { r, g, b, a };
    };
    const channel = (c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = ({ r, g, b }) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const pageBg = (node) => {
      for (let e = node; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) return c;
      }
      return { r: 255, g: 255, b: 255, a: 1 };
    };
    const found = [];
    for (const svgEl of document.querySelectorAll('article figure svg')) {
      const shapes = [...svgEl.querySelectorAll('rect')];
      for (const text of svgEl.querySelectorAll('text')) {
        if (!text.textContent.trim() || text.getClientRects().length === 0) continue;
        const box = text.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        let bg = pageBg(svgEl.parentElement);
        for (const shape of shapes) {
          if (!(shape.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
          const r = shape.getBoundingClientRect();
          if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
          const fill = rgba(getComputedStyle(shape).fill);
          const opacity = Number(getComputedStyle(shape).fillOpacity);
          if (fill && fill.a * opacity > 0) bg = over({ ...fill, a: fill.a * opacity }, bg);
        }
        const fg = over(rgba(getComputedStyle(text).fill) ?? { r: 0, g: 0, b: 0, a: 1 }, bg);
        const [hi, lo] = [luminance(fg), luminance(bg)].sort((p, q) => q - p);
        const hex = (c) => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
        found.push({
          text: text.textContent.trim().slice(0, 24),
          cls: text.getAttribute('class') ?? text.parentElement.getAttribute('class') ?? '',
          fg: hex(fg),
          bg: hex(bg),
          ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
        });
      }
    }
    return found;
  });
}
