import type { TableDescription } from './engines/engine.js';

/** A table's description as compact text: columns with types and constraints, keys, indexes. */
export function tableDescriptionText(table: TableDescription): string {
  const lines = [
    `${table.type === 'view' ? 'View' : 'Table'} ${table.name}${table.schema !== 'main' ? ` (schema ${table.schema})` : ''}`,
    '',
    'Columns:',
  ];
  for (const column of table.columns) {
    const notes = [
      column.type || 'no declared type',
      column.primaryKey > 0 ? 'primary key' : '',
      column.nullable ? '' : 'not null',
      column.default !== null ? `default ${column.default}` : '',
    ].filter(Boolean);
    lines.push(`- ${column.name}: ${notes.join(', ')}`);
  }
  if (table.foreignKeys.length > 0) {
    lines.push('', 'Foreign keys:');
    for (const key of table.foreignKeys) {
      const target = key.references.columns.length > 0 ? `(${key.references.columns.join(', ')})` : '(primary key)';
      lines.push(
        `- (${key.columns.join(', ')}) references ${key.references.table}${target}, on delete ${key.onDelete.toLowerCase()}`,
      );
    }
  }
  if (table.indexes.length > 0) {
    lines.push('', 'Indexes:');
    for (const index of table.indexes) {
      lines.push(`- ${index.name}${index.unique ? ' (unique)' : ''} on (${index.columns.join(', ')})`);
    }
  }
  return lines.join('\n');
}
