import sanitizeHtml from "sanitize-html";

/**
 * Email HTML is hostile input: it is reduced to formatting, links and https images before it
 * leaves the server. Scripts, event handlers, iframes, forms and styles with URLs never survive;
 * links open in a new tab without access to the opener.
 */
const IMAGE_SOURCE = /^(https:\/\/[^/]|cid:)/i;

/** Named, hex, rgb() and hsl() colours; nothing that could be a url() or expression(). */
const SAFE_COLOR = /^(?!.*(url|expression))[#a-z0-9(),.\s%]{1,40}$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== "style"),
    "img",
    "font",
    "center",
  ],
  allowedAttributes: {
    a: ["href", "name", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    td: ["colspan", "rowspan", "align", "valign", "width"],
    th: ["colspan", "rowspan", "align", "valign", "width"],
    table: ["width", "align", "cellpadding", "cellspacing", "border"],
    font: ["color"],
    "*": ["style", "dir", "lang"],
  },
  // Only plain visual properties whose values cannot carry a URL or an expression.
  allowedStyles: {
    "*": {
      color: [SAFE_COLOR],
      "background-color": [SAFE_COLOR],
      "text-align": [/^(left|right|center|justify)$/],
      "font-weight": [/^(normal|bold|[1-9]00)$/],
      "font-style": [/^(normal|italic)$/],
      "text-decoration": [/^(none|underline|line-through)$/],
      "font-size": [/^\d{1,3}(px|pt|em|rem|%)$/],
    },
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https", "cid"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // A relative src would load from our own origin (as the signed-in user); http would leak the
    // reader's address in clear. Only absolute https images and the message's own parts (cid:).
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      return { tagName, attribs: src && IMAGE_SOURCE.test(src.trim()) ? { ...rest, src: src.trim() } : rest };
    },
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: "_blank", rel: "noopener noreferrer" },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

export const sanitizeEmailHtml = (html: string) => sanitizeHtml(html, OPTIONS);

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** A text/plain body shown as HTML: escaped, paragraphs kept. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
  return escaped
    .split(/\r?\n\r?\n/)
    .map((p) => `<p>${p.replace(/\r?\n/g, "<br>")}</p>`)
    .join("\n");
}
