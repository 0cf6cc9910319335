// What the tools and resources do with a result, as opposed to what they are: loaded by the first call that needs it,
// so that a start loads only the definitions (names, schemas, descriptions) before it answers tools/list (ADR 0205).
// The SQLite engine renders query results in its worker processes, so a SQLite query never loads these; the engine
// loads its worker calls through the same `once` (ADR 0205).

/**
 * `load`, once: kept while it loads and once it has; forgotten when it fails, so that a later call tries again (which
 * helps only for the file the `import()` names: a chunk it imports statically that failed stays failed; ADR 0205).
 */
export function once<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** A query result as text and structured content within the budget (execute's RETURNING rows, PostgreSQL's queries). */
export const resultRendering = once(async () => {
  const [queryResult, resultBudget, resultText] = await Promise.all([
    import('./query-result.js'),
    import('./result-budget.js'),
    import('./result-text.js'),
  ]);
  return { ...queryResult, ...resultBudget, ...resultText };
});

/** What execute asks the user to confirm: the statements that destroy data. */
export const statementSafety = once(() => import('./statement-safety.js'));

/** A table's description as text (describe_table, the table resources). */
export const tableText = once(() => import('./table-text.js'));

/** How much of a value an error sentence quotes (a name the model sent, echoed in a refusal). */
export const errorText = once(() => import('./error-text.js'));

/** How a name from the catalog is shown (list_tables, describe_table, the table resources), and found as shown. */
export const catalogNames = once(() => import('./catalog-names.js'));
