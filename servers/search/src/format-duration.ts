/** A duration for a sentence the model reads: "1 second", "0.8 seconds", "20 seconds". */
export function formatSeconds(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 100) / 10;
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}
