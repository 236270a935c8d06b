// Shared test setup: nothing global yet beyond vitest globals (see vitest.config.ts).
export {};
