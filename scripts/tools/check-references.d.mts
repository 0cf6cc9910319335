export interface WorkspacePackage {
  name: string;
  folder: string;
  /** The project its build runs `tsc -b` on (the kit and bundled servers: declarations only), if any. */
  buildProject: string | undefined;
}
export function workspacePackages(workspaceRoot?: string): WorkspacePackage[];
/** Every import that needs a reference, as `project -> package`, and the sentences naming what is wrong. */
export function checkReferences(workspaceRoot?: string): { expected: string[]; problems: string[] };
