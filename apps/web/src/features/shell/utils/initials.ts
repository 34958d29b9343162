/** Avatar initials (spec §2 user menu): the first letter of each word of the name, uppercased. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => Array.from(word)[0]!.toUpperCase())
    .join('');
}
