// The field tables of docs/rollouts-facts.md and docs/argocd-facts.md, written by npm run docs from the fact contract
// (src/notifications/fact-contract.ts), which also writes schema/glidepath.fact.v1.json;
// test/notifications/fact-schema.test.ts checks both are current.
import type { BodyContract } from '../src/notifications/body/fact-schema';
import { factFieldTable, ROLLOUT_FACT_CONTRACT, SYNC_FACT_CONTRACT } from '../src/notifications/fact-contract';

const BEGIN = '<!-- field table generated from src/notifications/fact-contract.ts: npm run docs -->';
const END = '<!-- end of field table -->';

export const FACT_DOCS: readonly { readonly doc: string; readonly contract: BodyContract }[] = [
  { doc: 'docs/rollouts-facts.md', contract: ROLLOUT_FACT_CONTRACT },
  { doc: 'docs/argocd-facts.md', contract: SYNC_FACT_CONTRACT },
];

/** The doc's text with its field table written from the contract (before Prettier aligns it). */
export function currentFactDoc(doc: string, text: string, contract: BodyContract): string {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${doc} lacks the markers of its field table`);
  return `${text.slice(0, begin)}${BEGIN}\n\n${factFieldTable(contract)}\n\n${text.slice(end)}`;
}
