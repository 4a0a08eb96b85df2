-- After wrk's usual report, its own figures as one JSON line, which bench/load.py reads.
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "connect": %d, ' ..
    '"read": %d, "write": %d, "timeout": %d, "status": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.connect, errors.read, errors.write, errors.timeout, errors.status))
end
