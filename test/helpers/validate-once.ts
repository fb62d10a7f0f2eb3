/**
 * validateClusterText, remembered per input for the test worker, as renderOnce remembers renders: the result is a
 * function of the file's name as shown, its text, the relay override and the environment's secrets alone, which
 * test/config pins. Reading the file stays real. The result is frozen, so that a command that changed a loaded
 * cluster (and so another command's input) fails its test.
 */
import { validateClusterText } from '../../src/clusters';
import type { ClusterTextValidator } from '../../src/config/validate-cluster-text';
import { rememberedFrozen } from './deep-frozen';

export const validateOnce: ClusterTextValidator = rememberedFrozen(validateClusterText, (input) =>
  JSON.stringify([input.file, input.text, input.relayIp, input.knownSecrets]),
);
