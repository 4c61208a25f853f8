export const FIRST_START_BUDGET: number;
export const IDLE_BUDGET: number;
