/**
 * Where the server's routes ask whether a role may do something: the table itself is shared with the dashboard
 * (src/contracts/common.ts), so the server, the machines and the views read one table.
 */
export { can, permissionsFor } from '../../contracts/common'
