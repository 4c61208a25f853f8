/**
 * The emoji the Countdown settings offer with one click. They are also in the common emoji slice
 * (src/web/styles/emoji-common.ts), so a picked one never needs the whole emoji font.
 */
export const EMOJI_CHOICES = ["🎉", "🚀", "🎂", "✈️", "🏖️", "📅", "⏰", "🎄", "💍", "🏁"];
