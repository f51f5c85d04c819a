/**
 * The test task's preflight: the real-server tests (Virtuoso, the Catmandu
 * OAI-PMH provider) never skip, so a machine without their packages stops
 * here, before any test, naming the one command that installs them.
 */

import { INSTALL_REAL_SERVERS, missingRealServers } from "./_real_servers.ts";

const missing = missingRealServers();
if (missing.length > 0) {
  console.error(
    `The tests run tidepool against real servers, and this machine lacks: ${
      missing.join("; ")
    }.\nInstall them with (as root): ${INSTALL_REAL_SERVERS}`,
  );
  Deno.exit(1);
}
