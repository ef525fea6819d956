// A small Markdown reader for the rules page (docs/rules.md): headings, paragraphs, lists
// (- and 1.), **bold**, *italic* and `code`. Pure: it returns blocks, the view draws them.
const INLINE = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/;

export function inline(text) {
  return text.split(INLINE).filter((part) => part !== "").map((part) => {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) return { t: "b", v: part.slice(2, -2) };
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return { t: "code", v: part.slice(1, -1) };
    if (part.startsWith("*") && part.endsWith("*") && part.length > 2) return { t: "i", v: part.slice(1, -1) };
    return { t: "text", v: part };
  });
}

export function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** Blocks: {type: "h", level, text, id} | {type: "p", parts} | {type: "ul"|"ol", items: [parts]}. */
export function parseMarkdown(source) {
  const blocks = [];
  let para = null;
  let list = null;
  const close = () => { para = null; list = null; };
  for (const raw of source.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    const bullet = line.match(/^\s*[-*]\s+(.*)$/);
    const numbered = line.match(/^\s*\d+\.\s+(.*)$/);
    if (!line.trim()) { close(); continue; }
    if (heading) {
      close();
      blocks.push({ type: "h", level: heading[1].length, text: heading[2], id: slug(heading[2]) });
    } else if (bullet || numbered) {
      const type = bullet ? "ul" : "ol";
      if (!list || list.type !== type) { para = null; list = { type, items: [] }; blocks.push(list); }
      list.items.push(inline((bullet || numbered)[1]));
    } else if (list && /^\s+/.test(line)) {
      const items = list.items;
      items[items.length - 1] = items[items.length - 1].concat(inline(" " + line.trim()));
    } else {
      list = null;
      if (!para) { para = { type: "p", parts: [] }; blocks.push(para); }
      else para.parts.push({ t: "text", v: " " });
      para.parts.push(...inline(line.trim()));
    }
  }
  return blocks;
}
