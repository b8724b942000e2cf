#!/usr/bin/env bash
# Stalled connections: an echo server (I-RMI and stock JacORB, each with its defaults) holds N
# connections that each sent 2 bytes and stalled, and a new stock JacORB client connects and calls; prints its
# connect+call time and errors as markdown rows (docs/benchmarks/hostile-clients.md).
#   scripts/stalled-bench.sh [--stalled 1000,10000] [--servers irmi,stock] [--calls 20]
# Runs under flock /tmp/irmi-team/cpu.lock when /tmp/irmi-team exists. Needs about 12,000 file descriptors (ulimit -n) for 10,000.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCK=/tmp/irmi-team/cpu.lock
run_locked() { if [ -d /tmp/irmi-team ]; then flock "$LOCK" "$@"; else "$@"; fi; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# Built in the reactor (-am), never installed: the class path names this tree's target/classes.
run_locked mvn -B -q -o test-compile dependency:build-classpath -pl irmi-orb -am -Dmdep.outputFile=target/test-classpath.txt \
  -Dmdep.includeScope=test >/dev/null
cp="irmi-orb/target/test-classes:irmi-orb/target/classes:$(cat irmi-orb/target/test-classpath.txt)"
run_locked java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.org.jacorb=error \
  -cp "$cp" org.irmi.orb.StalledConnectionsBenchmark "$@"
