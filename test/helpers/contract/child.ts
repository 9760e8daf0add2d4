/**
 * Loaded with `--import` into the servers tests run as child processes (../server-process.ts): the
 * same contract hooks as in the test process, reporting each answer's violations (and those of the
 * events queued before it) in a response header that the test's API client turns into an error.
 */
import { installContractHooks } from "./hook.js";

installContractHooks({ inHeader: true });
