/**
 * Read-only access to the live cluster through the user's kubectl and kubeconfig: only `kubectl get`, and Secret
 * keys through a template that prints each key and the length of its value, so no value reaches this process.
 */
import { GlidepathError } from '../errors';
import { launch, type LaunchResult } from '../launcher';

export type Json = Record<string, unknown>;

/** What a read returned: the object, nothing (NotFound), or why it could not be read. */
export type ReadResult<T> = { readonly found: true; readonly value: T } | { readonly found: false; readonly reason?: string };

const SECRET_KEYS_TEMPLATE = '{{range $key, $value := .data}}{{$key}}={{len $value}}{{"\\n"}}{{end}}';
const TIMEOUT_MS = 30_000;

export class Kubectl {
  constructor(
    private readonly context?: string,
    private readonly binary = 'kubectl',
  ) {}

  /** `kubectl get <resource> [name] (-n ns | -A) [-l selector] -o json`. */
  async getJson(resource: string, options: { name?: string; namespace?: string; selector?: string }): Promise<ReadResult<Json>> {
    const result = await this.get([resource, ...(options.name ? [options.name] : []), ...scope(options.namespace), ...(options.selector ? ['-l', options.selector] : []), '-o', 'json']);
    if (!result.found) return result;
    try {
      return { found: true, value: JSON.parse(result.value) as Json };
    } catch {
      throw new GlidepathError(`kubectl get ${resource} printed no JSON`, 'run the same kubectl command by hand to see what it prints', false);
    }
  }

  /** Key -> length of the (base64) value of a Secret; the values stay inside kubectl. */
  async secretKeys(name: string, namespace: string): Promise<ReadResult<ReadonlyMap<string, number>>> {
    const result = await this.get(['secret', name, '-n', namespace, '-o', `go-template=${SECRET_KEYS_TEMPLATE}`]);
    if (!result.found) return result;
    const keys = new Map<string, number>();
    for (const line of result.value.split('\n')) {
      const at = line.lastIndexOf('=');
      if (at > 0) keys.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    return { found: true, value: keys };
  }

  private async get(args: readonly string[]): Promise<ReadResult<string>> {
    const argv = [...(this.context ? ['--context', this.context] : []), 'get', ...args, '--request-timeout=20s'];
    let result: LaunchResult;
    try {
      result = await launch({ command: this.binary, args: argv, cwd: process.cwd(), env: process.env, input: '', timeoutMs: TIMEOUT_MS });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new GlidepathError(`${this.binary} is not on PATH`, 'install kubectl (https://kubernetes.io/docs/tasks/tools/) or put it on PATH', false);
      }
      throw error;
    }
    if (result.code === 0) return { found: true, value: result.stdout.toString('utf8') };
    const text = result.stderr.toString('utf8').trim();
    if (/NotFound|not found/.test(text) && !/context/.test(text)) return { found: false };
    if (/doesn't have a resource type/.test(text)) return { found: false, reason: 'its CustomResourceDefinition is not installed' };
    if (/Forbidden|forbidden/.test(text)) return { found: false, reason: `forbidden: your kubeconfig user may not read it (${firstLine(text)})` };
    if (/context .*(does not exist|not found)/.test(text)) {
      throw new GlidepathError(firstLine(text).replace(/^error: /, ''), 'kubectl config get-contexts lists the contexts of your kubeconfig', true);
    }
    const ending = result.signal !== null ? `stopped by ${result.signal}${result.signal === 'SIGTERM' ? ` (no answer within ${TIMEOUT_MS / 1000} s)` : ''}` : `exit code ${result.code}`;
    throw new GlidepathError(`kubectl ${argv.join(' ')} failed: ${firstLine(text) || ending}`, 'check that the cluster is reachable: kubectl cluster-info', false);
  }
}

function scope(namespace: string | undefined): string[] {
  return namespace === undefined ? ['--all-namespaces'] : ['-n', namespace];
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
