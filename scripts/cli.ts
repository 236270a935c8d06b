/**
 * The one way the npm scripts read their options: node:util parseArgs with `--help`/`-h`, which
 * prints `usage` on stdout and exits 0. An unknown option, a missing value or a positional argument
 * prints the parser's message and `usage` on stderr and exits 2, instead of a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type WithHelp<O extends Options> = { options: O & { help: { type: 'boolean'; short: 'h' } } };

/** The parsed `--name value` options of process.argv (parseArgs `values`); ends the process as above. */
export function parseCli<const O extends Options>(usage: string, options: O) {
  const config: WithHelp<O> = { options: { ...options, help: { type: 'boolean', short: 'h' } } };
  let values: ReturnType<typeof parseArgs<WithHelp<O>>>['values'];
  try {
    values = parseArgs(config).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}
