/**
 * Name Rollouts refer to in `analysis.templates[].templateName` (AnalysisTemplate and ClusterAnalysisTemplate alike).
 */
export const VERIDOR_GATE_NAME = 'veridor-gate';
