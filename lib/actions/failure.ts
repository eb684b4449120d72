/** A refused or failed action as the browser gets it: a code, a plain message, an error id if it was ours. */
export type ActionFailure = { code: string; message: string; errorId?: string };
