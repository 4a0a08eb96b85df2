// Start-up web vitals (LCP, INP, CLS, TTFB), logged to the console only (docs/architecture.md).
// This module and the web-vitals package it imports are loaded by the runtime after the load
// event, once the browser is idle, so they cost nothing before the first paint; the package's
// observers read the browser's buffered entries, so nothing that happened earlier is missed.
// Every change is logged (reportAllChanges): LCP and CLS as they settle, TTFB once, INP from
// the first interaction.
import { onCLS, onINP, onLCP, onTTFB } from "web-vitals";

function format(metric) {
  return metric.name === "CLS" ? metric.value.toFixed(3) : `${Math.round(metric.value)} ms`;
}

function log(metric) {
  console.log(`[web-vitals] ${metric.name} ${format(metric)} (${metric.rating})`);
}

for (const observe of [onLCP, onINP, onCLS, onTTFB]) {
  observe(log, { reportAllChanges: true });
}
