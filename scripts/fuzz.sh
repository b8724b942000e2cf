#!/usr/bin/env bash
# Coverage-guided fuzzing of the transport and the value reader (Jazzer), 1,000,000 inputs per
# harness (the maxExecutions of each @FuzzTest), and the figures written to docs/benchmarks/fuzzing.md.
#
#   scripts/fuzz.sh            # both harnesses
#   scripts/fuzz.sh framer     # one: framer | values
#
# A finding fails the run and Jazzer writes the input under irmi-orb/src/test/resources/.../<Test>Inputs/<method>/,
# where every later `mvn test` replays it (the regression test). The inputs Jazzer found interesting go to
# irmi-orb/.cifuzz-corpus/ (not committed); the committed seed corpus is what CI replays.
# CPU-heavy: takes the team's benchmark lock when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCK=/tmp/irmi-team/cpu.lock
run_locked() { if [ -d /tmp/irmi-team ]; then flock "$LOCK" "$@"; else "$@"; fi; }

declare -A TESTS=([framer]="TransportFuzzTest#framer" [values]="ValueReaderFuzzTest#values")
which=("${@:-framer values}")
read -r -a which <<< "${which[*]}"

run_locked mvn -B -q -o install -DskipTests -pl irmi-orb -am >/dev/null
out=docs/benchmarks/fuzzing.md
commit=$(git rev-parse --short HEAD)
{
  echo "# Fuzzing"
  echo
  echo "Made on commit \`$commit\`, $(date -u +%Y-%m-%d), $(nproc) CPUs, Java $(java -version 2>&1 | head -1 | cut -d'"' -f2),"
  echo "Jazzer 0.24.0 (libFuzzer). Command: \`scripts/fuzz.sh\`."
  echo
  echo "| harness | what it drives | inputs run | time (s) | inputs/s | coverage (edges) | corpus | findings |"
  echo "|---|---|---|---|---|---|---|---|"
} > "$out.tmp"
status=0
for h in "${which[@]}"; do
  t=${TESTS[$h]:?unknown harness $h (framer or values)}
  log=$(mktemp)
  start=$(date +%s)
  if JAZZER_FUZZ=1 run_locked mvn -B -o -pl irmi-orb surefire:test -Dtest="$t" -Dsurefire.failIfNoSpecifiedTests=false \
      -DtrimStackTrace=false >"$log" 2>&1; then finding=0; else finding=1; status=1; fi
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
  echo "| $h (\`$t\`) | $what | $runs | $secs | $rate | $cov | $corp | $([ $finding = 0 ] && echo none || echo "**yes**: see $log") |" >> "$out.tmp"
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
