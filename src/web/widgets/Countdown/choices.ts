/**
 * The emoji the Countdown settings offer with one click. With the default they have a slice of
 * the emoji font of their own (src/web/styles/emoji-common.ts), so a dashboard showing a picked
 * one loads a few KB of font, never the whole emoji font.
 */
export const EMOJI_CHOICES = ["🎉", "🚀", "🎂", "✈️", "🏖️", "📅", "⏰", "🎄", "💍", "🏁"];
