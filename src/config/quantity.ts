/** Kubernetes resource quantities (apimachinery `resource.Quantity`): parsing for checks, never for output. */

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

const BINARY: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL: Readonly<Record<string, number>> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** The value of a quantity such as `100m`, `128Mi` or `1.5`, or undefined when Kubernetes would refuse it. */
export function quantityValue(text: string): number | undefined {
  const match = QUANTITY.exec(text);
  if (match === null) return undefined;
  const [, number, binary, decimal, exponent] = match;
  const scale =
    binary !== undefined ? BINARY[binary]! : decimal !== undefined ? DECIMAL[decimal]! : 10 ** Number(exponent ?? 0);
  return Number(number) * scale;
}
