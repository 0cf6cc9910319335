export type { DatabaseDependencies, DatabaseLimits } from './dependencies.js';
export { defaultLimits } from './dependencies.js';
export type {
  CellValue,
  DatabaseEngine,
  ExecuteResult,
  ExplainResult,
  QueryRequest,
  QueryResult,
  TableDescription,
  TableSummary,
} from './engines/engine.js';
export type { SqliteEngineOptions } from './engines/sqlite/sqlite-engine.js';
export { openSqliteEngine } from './engines/sqlite/sqlite-engine.js';
export type { SampleDatabaseSummary } from './sample-database.js';
export { createSampleDatabase } from './sample-database.js';
export type { DatabaseServerOptions } from './server.js';
export { createDatabaseServer } from './server.js';
export { checkStatement, destructiveReason, StatementError } from './statement-safety.js';
