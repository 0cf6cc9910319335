export type { DatabaseDependencies, DatabaseLimits } from './dependencies.js';
export { defaultLimits } from './dependencies.js';
export type {
  CellValue,
  DatabaseEngine,
  ExecuteResult,
  ExplainResult,
  QueryRenderLimits,
  QueryRequest,
  QueryResult,
  SerializedQueryResult,
  TableDescription,
  TableSummary,
} from './engines/engine.js';
export type { PostgresEngineOptions } from './engines/postgres/postgres-engine.js';
export { openPostgresEngine } from './engines/postgres/postgres-engine.js';
export type { SqliteEngineOptions } from './engines/sqlite/sqlite-engine.js';
export { openSqliteEngine } from './engines/sqlite/sqlite-engine.js';
export type { SampleDatabaseSummary } from './sample-database.js';
export { createSampleDatabase } from './sample-database.js';
export type { DatabaseServerOptions } from './server.js';
export { createDatabaseServer, isPostgresUrl } from './server.js';
export { checkPostgresStatement, checkStatement, destructiveReason, StatementError } from './statement-safety.js';
