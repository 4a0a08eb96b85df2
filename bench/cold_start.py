"""Cold start: seconds from launching gunicorn (documented config) to the first 200 on /.

Why it matters: a new instance behind a load balancer, or a restart after a deploy, serves
nothing until then. The time covers Python imports, create_app(), the workers' boot and the
first render of / (which also creates the embedded V8 context of the island renderer).
Each run starts a fresh master on a fresh port; the median of a few runs is reported (there is
no target for it).

    .venv/bin/python bench/cold_start.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

import common


def one_cold_start(run: int) -> float:
    """Launch gunicorn and poll / every 5 ms; the clock starts just before the launch."""
    port = common.free_port()
    command = common.gunicorn_command(common.SITE_APP, port)
    log = common.results_dir() / f"cold-start-{run}.log"
    log.unlink(missing_ok=True)
    begun = time.monotonic()
    with common.server(command, log, f"http://127.0.0.1:{port}/"):
        return time.monotonic() - begun


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    common.exit_on_sigterm()

    common.section("Cold start: gunicorn launch to first 200 on /")
    print("gunicorn -c deploy/gunicorn.conf.py")
    times = [one_cold_start(run) for run in range(1, args.runs + 1)]
    median = statistics.median(times)
    print(
        common.table(
            ["run", "seconds"],
            [[i, f"{t:.2f}"] for i, t in enumerate(times, 1)] + [["median", f"{median:.2f}"]],
        )
    )
    common.record_target(
        "cold start",
        "launch to first 200 on / (no target)",
        f"{median:.2f} s median of {len(times)}",
        "info",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
