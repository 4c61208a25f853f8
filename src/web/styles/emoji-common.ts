/**
 * The common emoji, in slices of the emoji font: each slice (a small WOFF2 file next to emoji.css)
 * draws its own emoji, so a page that shows only those never downloads the whole Twemoji font, and
 * a page that shows only the Countdown's emoji loads only the smallest slice. The one list:
 * `npm run emoji:slice` (scripts/emoji-slice.ts) makes every slice and its @font-face
 * unicode-range in emoji.css from it, and emoji-common.test.ts fails while they disagree.
 */
import { WIDGET_EMOJI } from "../../widgets";

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

/** The five skin tones, so the common slice draws 👍🏽 too. */
export const SKIN_TONES = ["🏻", "🏼", "🏽", "🏾", "🏿"];

/**
 * What completes the full font's sequences that start with a character of the common slice (😮‍💨,
 * 😵‍💫, 😶‍🌫️, 🙋‍♀️, 🙆🏽‍♂️, ❤️‍🩹): a browser that picks fonts character by character would otherwise
 * draw such a sequence in two pieces, its start from the slice and its end from the full font.
 * The Countdown's emoji start no sequence of the font, so their slice needs none.
 */
export const SEQUENCE_ENDS = ["💨", "💫", "🌫", "♀", "♂", "🩹"];

/** The zero width joiner of sequences (❤️‍🔥, 🙋‍♀️). */
export const ZWJ = 0x200d;

/**
 * VS16, the emoji form's selector (✈️, ❤️). In every slice, so the ligatures that hold it form
 * where a browser keeps it with the font of the character before it, but in no slice's
 * unicode-range: in Chromium, a slice face claiming it drew a keycap (1️⃣, whose digit no emoji
 * face takes) as two boxes instead of the full font's one.
 */
export const VS16 = 0xfe0f;

export interface EmojiSlice {
  /** What it is called in the script's output and the tests' messages. */
  name: string;
  /** Its file, next to emoji.css, as the url() of its @font-face names it. */
  file: string;
  /** The emoji it draws, as text. */
  emoji: string[];
  /** Its code points (its cmap), ascending: its emoji's and what completes their sequences. */
  codePoints: number[];
}

function codePointsOf(texts: readonly string[], extra: readonly number[]): number[] {
  const codePoints = new Set<number>(extra);
  for (const text of texts) for (const char of text) codePoints.add(char.codePointAt(0)!);
  return [...codePoints].sort((a, b) => a - b);
}

/** The emoji widgets draw on their own (the Countdown's default and choices), what most dashboards show. */
export function choicesEmoji(): string[] {
  return [...new Set(WIDGET_EMOJI)];
}

/** The other common emoji as text: the smileys and the frequent ones, but the Countdown's. */
export function commonEmoji(): string[] {
  const choices = new Set(choicesEmoji());
  const emoticons = [];
  for (let cp = EMOTICONS.first; cp <= EMOTICONS.last; cp++) emoticons.push(String.fromCodePoint(cp));
  return [...new Set([...emoticons, ...FREQUENT_EMOJI])].filter((text) => !choices.has(text));
}

/**
 * The slices, in the order of their @font-face rules in emoji.css (all after the full font's:
 * the face declared last is tried first). Their ranges do not overlap: each code point of the
 * common emoji is claimed by one slice only, and a page loads the slices of the emoji it shows.
 */
export const EMOJI_SLICES: readonly EmojiSlice[] = [
  {
    name: "common",
    file: "emoji-common.woff2",
    emoji: [...commonEmoji(), ...SKIN_TONES],
    codePoints: codePointsOf([...commonEmoji(), ...SKIN_TONES, ...SEQUENCE_ENDS], [ZWJ, VS16]),
  },
  {
    name: "choices",
    file: "emoji-choices.woff2",
    emoji: choicesEmoji(),
    codePoints: codePointsOf(choicesEmoji(), [VS16]),
  },
];

/** The code points of a slice's @font-face unicode-range: its own but VS16. */
export function rangeCodePoints(slice: EmojiSlice): number[] {
  return slice.codePoints.filter((codePoint) => codePoint !== VS16);
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
