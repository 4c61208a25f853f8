/**
 * The common emoji: what the small slice of the emoji font (emoji-common.woff2) draws, so a page
 * that shows only these never downloads the whole Twemoji font. The one list: `npm run emoji:slice`
 * (scripts/emoji-slice.ts) makes the slice and its @font-face unicode-range in emoji.css from it,
 * and emoji-common.test.ts fails while the three disagree.
 */
import { DEFAULT_EMOJI } from "../../contract/widgets/countdown";
import { EMOJI_CHOICES } from "../widgets/Countdown/choices";

/** The Emoticons block (U+1F600–1F64F): the smileys and a few hand gestures. */
export const EMOTICONS = { first: 0x1f600, last: 0x1f64f } as const;

/** Frequent on dashboards, in note titles and in chat-like text. */
export const FREQUENT_EMOJI = [
  "❤️",
  "👍",
  "👏",
  "👋",
  "👀",
  "✅",
  "❌",
  "⚠️",
  "⭐",
  "🔥",
  "✨",
  "💯",
  "💡",
  "📌",
  "📝",
  "📈",
  "🏠",
  "💼",
  "📚",
  "☕",
];

/** The five skin tones, so the slice draws 👍🏽 too. */
export const SKIN_TONES = ["🏻", "🏼", "🏽", "🏾", "🏿"];

/**
 * What completes the full font's sequences that start with a character above (😮‍💨, 😵‍💫, 😶‍🌫️,
 * 🙋‍♀️, 🙆🏽‍♂️, ❤️‍🩹): a browser that picks fonts character by character would otherwise draw such a
 * sequence in two pieces, its start from the slice and its end from the full font.
 */
export const SEQUENCE_ENDS = ["💨", "💫", "🌫", "♀", "♂", "🩹"];

/** The zero width joiner of sequences (❤️‍🔥, 🙋‍♀️). */
export const ZWJ = 0x200d;

/**
 * VS16, the emoji form's selector (✈️, ❤️). In the slice, so the ligatures that hold it form where
 * a browser keeps it with the font of the character before it, but not in the slice's
 * unicode-range: in Chromium, a slice face claiming it drew a keycap (1️⃣, whose digit no emoji
 * face takes) as two boxes instead of the full font's one.
 */
export const VS16 = 0xfe0f;

/** Every emoji of the lists above as text. */
export function commonEmoji(): string[] {
  const emoticons = [];
  for (let cp = EMOTICONS.first; cp <= EMOTICONS.last; cp++) emoticons.push(String.fromCodePoint(cp));
  return [...new Set([DEFAULT_EMOJI, ...EMOJI_CHOICES, ...emoticons, ...FREQUENT_EMOJI])];
}

/** The slice's code points (its cmap), ascending. */
export function sliceCodePoints(): number[] {
  const codePoints = new Set<number>([ZWJ, VS16]);
  for (const text of [...commonEmoji(), ...SKIN_TONES, ...SEQUENCE_ENDS])
    for (const char of text) codePoints.add(char.codePointAt(0)!);
  return [...codePoints].sort((a, b) => a - b);
}

/** The code points of the slice's @font-face unicode-range: its own but VS16. */
export function sliceRangeCodePoints(): number[] {
  return sliceCodePoints().filter((codePoint) => codePoint !== VS16);
}

/** A CSS unicode-range value for exactly these code points (runs become ranges). */
export function unicodeRange(codePoints: readonly number[]): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, "0");
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let end = i;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    parts.push(end === i ? `U+${hex(sorted[i]!)}` : `U+${hex(sorted[i]!)}-${hex(sorted[end]!)}`);
    i = end + 1;
  }
  return parts.join(", ");
}
