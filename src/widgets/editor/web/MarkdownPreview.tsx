import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

// Links in notes open in a new tab and give the target no handle on this page.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/** Markdown to HTML, then through DOMPurify: notes may hold pasted HTML, and scripts must not run. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ["style", "form"] });
}

export default function MarkdownPreview({ markdown }: { markdown: string }) {
  const { t } = useTranslation();
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  if (!markdown.trim()) return <p className="muted">{t("widgets.editor.noPreview")}</p>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above.
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
