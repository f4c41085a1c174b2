/**
 * A retention period in days (functions/domain/retention.ts) as the legal pages say it: "7 days", "12 months",
 * "400 days (about 13 months)", "1 day".
 */
export function formatDays(days: number): string {
  if (days === 1) return '1 day';
  if (days % 365 === 0) return `${(days / 365) * 12} months`;
  if (days < 60) return `${days} days`;
  return `${days} days (about ${Math.round(days / 30.44)} months)`;
}

/** A period in hours: "1 hour", "24 hours". */
export function formatHours(hours: number): string {
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
