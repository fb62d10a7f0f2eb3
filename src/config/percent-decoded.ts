/** `text` with every `%xx` escape decoded as UTF-8 (an escape that is not valid UTF-8 stays as it is). */
export function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
