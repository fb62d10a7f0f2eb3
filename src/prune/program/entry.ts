/** The entry of the bundled prune program (scripts/build-prune-program.mjs): runs it and exits with its code. */
import { main } from './notified-prune';

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
