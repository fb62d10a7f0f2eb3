/**
 * Read-only access to the live cluster through the user's kubectl and kubeconfig: only `kubectl get`, and Secret
 * keys through a template that prints each key and the length of its value, so no value reaches this process.
 */
import { GlidepathError } from '../errors';
import { isRecord } from '../is-record';
import { launch, type LaunchResult } from '../launch';
import { shellWord } from '../output/shell-word';

/** What kubectl prints when it could not reach the API server at all. */
const UNREACHABLE =
  /Unable to connect|dial tcp|connection refused|no such host|i\/o timeout|deadline exceeded|Client\.Timeout|network is unreachable/i;

export type Json = Record<string, unknown>;

/** Runs kubectl with these arguments; check-live's tests answer from recorded output instead. */
export type KubectlRunner = (args: readonly string[]) => Promise<LaunchResult>;

/** What a read returned: the object, nothing (NotFound), or why it could not be read. */
export type ReadResult<T> =
  { readonly found: true; readonly value: T } | { readonly found: false; readonly reason?: string };

const SECRET_KEYS_TEMPLATE = '{{range $key, $value := .data}}{{$key}}={{len $value}}{{"\\n"}}{{end}}';
const TIMEOUT_MS = 30_000;
/** More than any list check-live reads (a thousand Rollouts are a few MB; about 15 reads run at once); kubectl is stopped beyond it. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The user's kubectl, found on PATH. */
export async function runKubectl(args: readonly string[]): Promise<LaunchResult> {
  try {
    return await launch({
      command: 'kubectl',
      args,
      cwd: process.cwd(),
      env: process.env,
      input: '',
      timeoutMs: TIMEOUT_MS,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new GlidepathError(
        'kubectl is not on PATH',
        'install kubectl (https://kubernetes.io/docs/tasks/tools/) or put it on PATH',
        false,
      );
    }
    throw error;
  }
}

export class Kubectl {
  constructor(
    private readonly context: string | undefined,
    private readonly run: KubectlRunner = runKubectl,
  ) {}

  /** `kubectl get <resource> [name] (-n ns | -A) [-l selector] [--field-selector fields] -o json`. */
  async getJson(
    resource: string,
    options: { name?: string; namespace?: string; selector?: string; fieldSelector?: string },
  ): Promise<ReadResult<Json>> {
    const result = await this.get([
      resource,
      ...(options.name ? [options.name] : []),
      ...scope(options.namespace),
      ...(options.selector ? ['-l', options.selector] : []),
      ...(options.fieldSelector ? ['--field-selector', options.fieldSelector] : []),
      '-o',
      'json',
    ]);
    if (!result.found) return result;
    let value: unknown;
    try {
      value = JSON.parse(result.value);
    } catch {
      value = undefined;
    }
    // `null` or a list parsed, and every check then read its fields: a TypeError's stack trace.
    if (!isRecord(value))
      throw new GlidepathError(
        `kubectl get ${resource} printed no JSON object`,
        'run the same kubectl command by hand to see what it prints',
        false,
      );
    return { found: true, value };
  }

  /** The API server's release (`gitVersion` of `kubectl get --raw /version`, e.g. `v1.28.15`), if it says one. */
  async serverVersion(): Promise<string | undefined> {
    const result = await this.get(['--raw', '/version']);
    if (!result.found) return undefined;
    try {
      const { gitVersion } = JSON.parse(result.value) as { gitVersion?: unknown };
      return typeof gitVersion === 'string' ? gitVersion : undefined;
    } catch {
      return undefined;
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

  /**
   * API discovery (`kubectl get --raw /api`), before any check: a context that reaches no Kubernetes API (unreachable,
   * TLS refused, 404 on everything, something else answering) or no kubeconfig at all is one error, exit 1, instead
   * of every check reporting its object missing.
   */
  async discover(): Promise<void> {
    const named = this.context ?? (await this.currentContext());
    const argv = ['get', '--raw', '/api'];
    const result = await this.run([
      ...(this.context ? ['--context', this.context] : []),
      ...argv,
      '--request-timeout=20s',
    ]);
    const fix =
      'check the server and the credentials of that context: ' + `kubectl --context ${shellWord(named)} cluster-info`;
    const cannot = (why: string) =>
      new GlidepathError(`cannot reach a Kubernetes API through kubectl context ${named}: ${why}`, fix, false);
    const text = result.stderr.toString('utf8').trim();
    if (result.code === 0) {
      const body = result.stdout.toString('utf8');
      if (isApiVersions(body)) return;
      throw cannot(
        `its server answers /api with ` +
          `${body.trim() === '' ? 'nothing' : `"${firstLine(body.trim()).slice(0, 60)}"`}, not Kubernetes API ` +
          `discovery`,
      );
    }
    if (/context .*(does not exist|not found)/.test(text))
      throw new GlidepathError(
        firstLine(text).replace(/^error: /, ''),
        'kubectl config get-contexts lists the contexts of your kubeconfig',
        true,
      );
    if (/localhost:8080/.test(text) && this.context === undefined) throw noKubeconfig();
    if (/x509|certificate|tls:|TLS handshake/i.test(text)) throw cannot(`TLS failed (${lastLine(text)})`);
    if (/NotFound|could not find the requested resource|\b404\b/.test(text))
      throw cannot(
        'its server answers 404 on /api: it is not a Kubernetes API server (or the server URL has a wrong path)',
      );
    if (UNREACHABLE.test(text) || result.signal !== null) {
      throw cannot(`unreachable (${lastLine(text) || `no answer within ${TIMEOUT_MS / 1000} s`})`);
    }
    throw cannot(`discovery failed (${lastLine(text) || `exit code ${result.code}`})`);
  }

  /** The kubeconfig's current context (`kubectl config current-context`, a local read). */
  private async currentContext(): Promise<string> {
    const result = await this.run(['config', 'current-context']);
    const name = result.stdout.toString('utf8').trim();
    if (result.code !== 0 || name === '') throw noKubeconfig();
    return name;
  }

  private async get(args: readonly string[]): Promise<ReadResult<string>> {
    const argv = [...(this.context ? ['--context', this.context] : []), 'get', ...args, '--request-timeout=20s'];
    const result = await this.run(argv);
    if (result.overflowed === true)
      throw new GlidepathError(
        `kubectl ${argv.map(shellWord).join(' ')} printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB: stopped`,
        'run the same kubectl command by hand to see what it prints',
        false,
      );
    if (result.code === 0) return { found: true, value: result.stdout.toString('utf8') };
    const text = result.stderr.toString('utf8').trim();
    if (/NotFound|not found/.test(text) && !/context/.test(text)) return { found: false };
    if (/doesn't have a resource type/.test(text))
      return { found: false, reason: 'its CustomResourceDefinition is not installed' };
    if (/Forbidden|forbidden/.test(text))
      return { found: false, reason: `forbidden: your kubeconfig user may not read it (${firstLine(text)})` };
    if (/context .*(does not exist|not found)/.test(text)) {
      throw new GlidepathError(
        firstLine(text).replace(/^error: /, ''),
        'kubectl config get-contexts lists the contexts of your kubeconfig',
        true,
      );
    }
    const ending =
      result.signal !== null
        ? `stopped by ` +
          `${result.signal}${result.signal === 'SIGTERM' ? ` (no answer within ${TIMEOUT_MS / 1000} s)` : ''}`
        : `exit code ${result.code}`;
    throw new GlidepathError(
      `kubectl ${argv.map(shellWord).join(' ')} failed: ${firstLine(text) || ending}`,
      'check that the cluster is reachable: kubectl cluster-info',
      false,
    );
  }
}

function scope(namespace: string | undefined): string[] {
  return namespace === undefined ? ['--all-namespaces'] : ['-n', namespace];
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/** kubectl's last line says what failed; the lines before it are its retries (memcache.go ... couldn't get ...). */
function lastLine(text: string): string {
  return (text.split('\n').at(-1) ?? '').replace(/^error: /, '');
}

function noKubeconfig(): GlidepathError {
  return new GlidepathError(
    'no kubeconfig context: kubectl has no current context (no kubeconfig, or none selected), so it would ask ' +
      'localhost:8080',
    'pass --context NAME, or select one: kubectl config use-context NAME (kubectl config get-contexts lists ' +
      'them; KUBECONFIG names the file)',
    false,
  );
}

function isApiVersions(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { kind?: unknown; versions?: unknown };
    return parsed.kind === 'APIVersions' && Array.isArray(parsed.versions);
  } catch {
    return false;
  }
}
