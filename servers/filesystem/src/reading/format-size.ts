const units = ['B', 'KB', 'MB', 'GB', 'TB'];

/** A byte count for people: `512 B`, `1.50 KB`, `3.20 MB` (the official server's format). */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0 B';
  const unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  if (unit === 0) return `${bytes} B`;
  return `${(bytes / 1024 ** unit).toFixed(2)} ${units[unit]}`;
}
