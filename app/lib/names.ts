// Names in a German sentence.

/** "Anna", "Anna und Ben", "Anna, Ben und Clara". */
export function joinNames(names: string[]) {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} und ${names[names.length - 1]}` : (names[0] ?? "");
}
