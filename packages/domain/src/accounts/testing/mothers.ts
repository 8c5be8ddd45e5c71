/** The account mother lives in the shared test kernel; re-exported here for the suites that import it from accounts. */
export { aNewUser } from '../../shared/testing/mothers.js';
