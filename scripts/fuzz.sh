#!/usr/bin/env bash
# Coverage-guided fuzzing of the transport and the value reader (Jazzer), 1,000,000 inputs per
# harness (FUZZ_RUNS) or FUZZ_MAX_SECONDS (1200) each, whichever ends first, with Jazzer's command-line driver, and the figures written to results/fuzzing.md, or with
# --update-docs to the documentation page docs/benchmarks/fuzzing.md.
#
#   scripts/fuzz.sh [--update-docs]            # both harnesses
#   scripts/fuzz.sh [--update-docs] framer     # one: framer | values
#
# A finding fails the run and Jazzer writes the input under irmi-orb/src/test/resources/.../<Test>Inputs/<method>/,
# where every later `mvn test` replays it (the regression test). The inputs Jazzer found interesting go to
# irmi-orb/target/fuzz-corpus/ (not committed); the committed seed corpus is what CI replays.
# CPU-heavy: runs under flock /tmp/irmi-team/cpu.lock when /tmp/irmi-team exists.
set -euo pipefail
cd "$(dirname "$0")/.."
# FUZZ_LOCK: another lock file lets a long run share the machine at low priority (nice) without holding the shared lock
LOCK=${FUZZ_LOCK:-/tmp/irmi-team/cpu.lock}
run_locked() { if [ -d /tmp/irmi-team ]; then flock "$LOCK" "$@"; else "$@"; fi; }

out=results/fuzzing.md
if [ "${1:-}" = "--update-docs" ]; then out=docs/benchmarks/fuzzing.md; shift; fi
mkdir -p "$(dirname "$out")"
declare -A CLASSES=([framer]="org.irmi.orb.TransportFuzzTest" [values]="org.irmi.orb.ValueReaderFuzzTest")
declare -A SEEDS=([framer]="TransportFuzzTestInputs/framer" [values]="ValueReaderFuzzTestInputs/values")
which=("${@:-framer values}")
read -r -a which <<< "${which[*]}"
RUNS=${FUZZ_RUNS:-1000000}
MAX_SECONDS=${FUZZ_MAX_SECONDS:-1200}

# a reactor build (no install: ~/.m2's snapshot jars are shared with other work trees); the sibling modules
# resolve to their target/classes
run_locked mvn -B -q -o test-compile dependency:build-classpath -pl irmi-orb -am -Dmdep.outputFile=target/test-classpath.txt \
  -Dmdep.includeScope=test >/dev/null
cp="irmi-orb/target/test-classes:irmi-orb/target/classes:$(cat irmi-orb/target/test-classpath.txt)"
commit=$(git rev-parse --short HEAD)
{
  echo "# Fuzzing"
  echo
  echo "Made on commit \`$commit\`, $(date -u +%Y-%m-%d), $(nproc) CPUs, Java $(java -version 2>&1 | head -1 | cut -d'"' -f2),"
  echo "Jazzer 0.24.0 (libFuzzer), its command-line driver. Command: \`scripts/fuzz.sh\`."
  echo
  echo "| harness | what it drives | inputs run | time (s) | inputs/s | coverage (edges) | corpus | findings |"
  echo "|---|---|---|---|---|---|---|---|"
} > "$out.tmp"
status=0
for h in "${which[@]}"; do
  cls=${CLASSES[$h]:?unknown harness $h (framer or values)}
  seeds=irmi-orb/src/test/resources/org/irmi/orb/${SEEDS[$h]}
  work=irmi-orb/target/fuzz-corpus/$h
  mkdir -p "$work"
  log=irmi-orb/target/fuzz-$h.log
  start=$(date +%s)
  # Jazzer's command-line driver runs the class's fuzzerTestOneInput (the same check as the @FuzzTest);
  # new inputs go to $work, a crashing input to the committed seed directory (a regression test from then on).
  # (the driver does not always exit after "Done" while the test's ORB threads run: the JVM is ended then)
  run_locked bash -c 'java -Xmx2g -cp "$1" com.code_intelligence.jazzer.Jazzer --target_class="$2" -runs="$3" \
      -max_total_time="$4" -artifact_prefix="$5/" "$6" "$5" >"$7" 2>&1 & pid=$!
    deadline=$(( $(date +%s) + $4 + 120 ))
    while kill -0 $pid 2>/dev/null; do
      if grep -aqE "^Done [0-9]+ runs" "$7" || [ "$(date +%s)" -gt "$deadline" ]; then sleep 2; kill -9 $pid 2>/dev/null; fi
      sleep 2
    done' _ "$cp" "$cls" "$RUNS" "$MAX_SECONDS" "$seeds" "$work" "$log" || true
  if grep -aqE '^Done [0-9]+ runs' "$log" && ! grep -aqE 'Test unit written to|== Java Exception' "$log"; then
    finding=0
  else
    finding=1; status=1
  fi
  end=$(date +%s)
  done_line=$(grep -aE '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  runs=$(grep -aoE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
  cov=$(echo "$done_line" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || echo "?")
  corp=$(echo "$done_line" | grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' | cut -d' ' -f2 || echo "?")
  secs=$((end - start))
  rate=$([ "$runs" != "?" ] && [ "$secs" -gt 0 ] && echo $((runs / secs)) || echo "?")
  case $h in
    framer) what="GIOP framer, fragment reassembler, request parser (real server, one connection per input)";;
    values) what="RMI-IIOP value reader behind the value filter (real server, one request per input)";;
  esac
  echo "| $h (\`$cls\`) | $what | $runs | $secs | $rate | $cov | $corp | $([ $finding = 0 ] && echo none || echo "**yes**: see $log") |" >> "$out.tmp"
  echo "$h: $runs inputs in ${secs}s, coverage $cov, finding=$finding (log $log)"
done
{
  echo
  echo "Time includes Maven's start and the server's. What each harness checks per input: the server closes or answers"
  echo "every connection by itself (no hang), keeps serving (an echo call every 64 inputs and at the end), returns every"
  echo "byte to the inbound budget, and never runs the tripwire class's readObject. \`mvn test\` replays the committed"
  echo "seed corpora (irmi-orb/src/test/resources/org/irmi/orb/*FuzzTestInputs/) as the CI smoke."
} >> "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
exit $status
