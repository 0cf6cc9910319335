import { catalogNameText as shown } from './catalog-names.js';
import type { TableDescription } from './engines/engine.js';

/**
 * A table's description as compact text: columns with types and constraints, keys, indexes. Every name and default
 * comes from the file, so one with a line break is quoted and cannot add a line of its own, and one longer than
 * `catalogNameChars` is shown by its head (the structured content keeps it whole, within the kit's budget).
 */
export function tableDescriptionText(table: TableDescription): string {
  const lines = [
    `${table.type === 'view' ? 'View' : 'Table'} ${shown(table.name)}${table.schema !== 'main' ? ` (schema ${shown(table.schema)})` : ''}`,
    '',
    'Columns:',
  ];
  for (const column of table.columns) {
    const notes = [
      column.type ? shown(column.type) : 'no declared type',
      column.primaryKey > 0 ? 'primary key' : '',
      column.nullable ? '' : 'not null',
      column.default !== null ? `default ${shown(column.default)}` : '',
    ].filter(Boolean);
    lines.push(`- ${shown(column.name)}: ${notes.join(', ')}`);
  }
  if (table.foreignKeys.length > 0) {
    lines.push('', 'Foreign keys:');
    for (const key of table.foreignKeys) {
      const target =
        key.references.columns.length > 0 ? `(${key.references.columns.map(shown).join(', ')})` : '(primary key)';
      lines.push(
        `- (${key.columns.map(shown).join(', ')}) references ${shown(key.references.table)}${target}, on delete ${shown(key.onDelete.toLowerCase())}`,
      );
    }
  }
  if (table.indexes.length > 0) {
    lines.push('', 'Indexes:');
    for (const index of table.indexes) {
      lines.push(
        `- ${shown(index.name)}${index.unique ? ' (unique)' : ''} on (${index.columns.map(shown).join(', ')})`,
      );
    }
  }
  return lines.join('\n');
}
