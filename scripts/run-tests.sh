#!/usr/bin/env bash
# The whole test suite (`make test`, docs/packaging.md "Tests"), run as several `swift test`
# processes at once, each taking the next group of tests from a queue: one group for each suite of
# the end-to-end tests, one for each other test target.
#
# Why several processes: the testing library runs tests on Swift's shared thread pool, as wide as
# the machine has cores, and most end-to-end tests block one of those threads while they wait on
# the programs they start (a run, a simulator, a broker, a browser). On a two-core machine that
# lets two of them wait at a time. Processes add pools; the CPU they need stays small.
#
# TEST_PROCESSES sets how many run at once (default 6: the groups mostly wait, and on the 2-core
# machine four at a time used 0.8 of a core). A group's output is printed whole when it
# ends: its summary line when it passed, everything when it failed. The exit status is 1 when a
# group failed.
set -euo pipefail
cd "$(dirname "$0")/.."

processes=${TEST_PROCESSES:-6}
swift build --build-tests

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Test ids read `Target.Suite/test(...)`. The longest groups go first (a minute or more on the
# 2-core machine), then the other end-to-end suites, then the other targets: a queue that ends on
# short groups keeps every process busy to the end.
longest='AlarmTests GpsdEpochAgreementTests CurrentHomeAssistantTests BrokerFailoverTests MQTTTests
    RealHomeAssistantTests AnchorWatchTests SyncCommandTests WebServerTests'
# Run after the queue, with the machine to themselves: the fleet's failover starts fifty vehicles
# (a run and a simulator each) on a three-node NATS cluster, and beside three other test
# processes its events reached the cluster's subscriber later than its deadlines allow.
alone='ClusterFailoverTests'
# The tests' binary is run directly: `swift test` holds a lock on the build folder, which would
# make the processes wait for each other.
tests_binary="$(swift build --show-bin-path)/gpsfencePackageTests.xctest"
export tests_binary
"$tests_binary" --testing-library swift-testing --list-tests 2>/dev/null >"$logs/all"
grep '^EndToEndTests\.' "$logs/all" | cut -d/ -f1 | sort -u | sed 's/\./\\./; s|$|/|' >"$logs/suites"
for suite in $alone; do grep -Fx "EndToEndTests\\.$suite/" "$logs/suites" || true; done >"$logs/alone"
{
    for suite in $longest; do grep -Fx "EndToEndTests\\.$suite/" "$logs/suites" || true; done
    for suite in $longest $alone; do echo "EndToEndTests\\.$suite/"; done | grep -Fvx -f - "$logs/suites"
    grep -v '^EndToEndTests\.' "$logs/all" | cut -d. -f1 | sort -u | sed 's/$/\\./'
} >"$logs/groups"
echo "$(wc -l <"$logs/all") tests in $(($(wc -l <"$logs/groups") + $(wc -l <"$logs/alone"))) groups," \
    "$processes processes at a time, then $(wc -l <"$logs/alone") alone"

signal_said() { # signal_said STATUS: ", killed by SIGNAME" when a signal ended the process
    (($1 > 128 && $1 < 160)) && echo ", killed by SIG$(kill -l $(($1 - 128)))" || true
}
# What the end of the output repeats of a failed group, so that its last lines, which are what a CI
# page shows, say what failed: the issues recorded, and when the process died instead of ending
# (a crash on a thread without a signal stack prints nothing), the tests it was running then.
failure_summary() { # failure_summary PATTERN STATUS LOG
    local pattern=$1 status=$2 log=$3.plain
    sed $'s/\e\\[[0-9;]*m//g' "$3" >"$log" # without the colours of a terminal
    echo "✘ $pattern: exit $status$(signal_said "$status")"
    grep -E '^✘ Test .* recorded an issue' "$log" | cut -c 1-300 | head -n 8 | sed 's/^/    /' || true
    if ! grep -qE '^✘ Test run with' "$log"; then
        grep -A 6 -E '^\*\*\* Program crashed|crashed:$' "$log" | grep -v '^$' | cut -c 1-200 | head -n 16 \
            | sed 's/^/    /' || true
        grep -oE '^◇ Test .*\(.*\) started' "$log" | sed -E 's/^◇ Test (.*) started$/\1/' | sort >"$log.started"
        grep -oE '^(✔|✘) Test .*\(.*\) (passed|failed)' "$log" | sed -E 's/^(✔|✘) Test (.*) (passed|failed)$/\2/' \
            | sort >"$log.ended"
        echo "    no summary: the process ended early, $(wc -l <"$log.ended") of $(wc -l <"$log.started") tests" \
            "ended; not ended then (the first 12):"
        comm -23 "$log.started" "$log.ended" | head -n 12 | sed 's/^/      /'
    fi
}
export -f signal_said failure_summary

run_group() { # run_group LOGS PATTERN: one group's tests; its output printed when it ends
    local logs=$1 pattern=$2 log status=0 start=$SECONDS
    log=$(mktemp "$logs/group.XXXXXX")
    "$tests_binary" --testing-library swift-testing --filter "^$pattern" >"$log" 2>&1 </dev/null || status=$?
    # One group's output at a time, never interleaved with another's.
    (
        flock 9
        if ((status == 0)); then
            echo "✔ $pattern ($((SECONDS - start)) s): $(grep -E 'Test run with' "$log" | tail -n 1)"
            grep -oE 'Test run with [0-9]+ test' "$log" | tail -n 1 | grep -oE '[0-9]+' >>"$logs/passed"
        else
            echo "✘ $pattern (exit $status$(signal_said "$status"), $((SECONDS - start)) s):"
            cat "$log"
            failure_summary "$pattern" "$status" "$log" >>"$logs/failed"
        fi
    ) 9>"$logs/print.lock"
    return "$status"
}
export -f run_group

status=0
xargs -d '\n' -P "$processes" -I{} bash -c 'run_group "$1" "$2"' _ "$logs" {} <"$logs/groups" || status=$?
# GPSFENCE_TESTS_BEFORE_ALONE: a command run as the groups that run alone start, for what runs
# beside the tests to make way (.ci/run pauses its compiles).
if [[ -n ${GPSFENCE_TESTS_BEFORE_ALONE:-} ]]; then bash -c "$GPSFENCE_TESTS_BEFORE_ALONE" || true; fi
while read -r group; do run_group "$logs" "$group" || status=$?; done <"$logs/alone"
if ((status != 0)); then
    cat "$logs/failed" 2>/dev/null || true
    echo "tests failed: the groups marked ✘ above"
    exit 1
fi
echo "every group passed: $(awk '{ n += $1 } END { print n }' "$logs/passed") tests"
