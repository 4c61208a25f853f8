/**
 * The spec's widget type values, spelled here from the service interface rather than imported
 * from src/contract, so a typo in the contract fails the tests instead of being mirrored by them.
 */
export const SPEC_WIDGET_TYPES = [
  "Bookmark",
  "Clock",
  "Countdown",
  "Crypto",
  "Editor",
  "Frame",
  "Codehost Heatmap",
  "Codehost",
  "Inbox",
  "Kanban",
  "Meetings",
  "Todo",
  "Weather",
];
