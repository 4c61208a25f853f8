export function startCommand(): { env: Record<string, string>; flags: string[] };
