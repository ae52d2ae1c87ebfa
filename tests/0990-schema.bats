#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON Schemas in doc/: a real validator (python3-jsonschema) over
# what contest writes.  Every file of the suite also checks, as it ends,
# the results lines and JSON documents its tests made (helpers.bash:
# schema_keep as each test ends, schema_check as the file does); these
# tests make the widest set here, check the stored
# examples of every schema, show that a wrong line fails, and hold
# doc/results.md to the schema.

load helpers

validate() {
	"$(schema_python)" "$TOP_SRCDIR/tests/validate-json" "$@"
}

setup_file() {
	py=$(schema_python) || skip "no python3: the schemas cannot be checked here (scripts/bootstrap installs python3-jsonschema)"
	"$py" -c 'import jsonschema' 2>/dev/null ||
		skip "no python3-jsonschema: the schemas cannot be checked here (scripts/bootstrap installs it)"
}

@test "schema: a session of every kind of run, its report and its comparison validate" {
	contest -k a --warmup 1 -n 2 --lead 0.2 --latency --series -l fork_load -l sleepers:n=5 \
	    -l cpu_load:n=1 -- sleep 0.4 >/dev/null 2>&1
	contest -k b --warmup 0 -n 3 --lead 0.1 --sweep t=0.1,0.2 -l forkbomb:mode=realloc \
	    --until-ci 50 -- sleep '{t}' >/dev/null 2>&1
	run -1 contest -k c --warmup 0 -n 1 --lead 0 -- sh -c 'exit 3'
	run -3 contest -k d --warmup 0 -n 1 --lead 0 -l io_load:dir=/nonexistent -- true
	run -1 contest -k e --warmup 0 -n 1 --lead 0 --prepare false -- true
	[ "$(rq -r '[.[].status] | unique | join(" ")')" = "failed load_failed ok prepare_failed" ]
	[ "$(rq '[.[] | select(.probe != null and .series != null and .latency != null)] | length')" -gt 0 ]
	run --separate-stderr contest report --format json
	[ "$status" -eq 0 ]
	echo "$output" >report.json
	run --separate-stderr contest compare --format json a b
	[ "$status" -le 1 ]
	echo "$output" >compare.json
	run validate results "$R" report report.json compare compare.json
	[ "$status" -eq 0 ]
	[[ "$output" == *", 0 invalid" ]]
	[ "$(rq 'length')" -ge 20 ]
}

@test "schema: every stored results file validates, schema 1, 2 and 3 lines alike" {
	run validate results "$TOP_SRCDIR"/tests/data/report/*.jsonl "$TOP_SRCDIR"/doc/*.jsonl \
	    "$TOP_SRCDIR"/scripts/bench/newest.jsonl
	[ "$status" -eq 0 ]
	for v in 1 2 3; do
		grep -q "\"schema\":$v," "$TOP_SRCDIR"/tests/data/report/*.jsonl "$TOP_SRCDIR"/doc/*.jsonl
	done
}

@test "schema: a field of the wrong type fails, in a results line and in a report" {
	run validate results "$TOP_SRCDIR/tests/data/schema/wrong-type.jsonl"
	[ "$status" -eq 1 ]
	[[ "$output" == *"wrong-type.jsonl:1: wall_s: '1.203027' is not of type 'number', 'null'"* ]]
	[[ "$output" == *", 1 invalid" ]]
	run --separate-stderr contest report -f "$TOP_SRCDIR/doc/example-quickstart.jsonl" --format json
	[ "$status" -eq 0 ]
	jq '.loads[0].rows[0].runs = "3"' <<<"$output" >bad-report.json
	run validate report bad-report.json
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad-report.json:1: loads/0/rows/0/runs: '3' is not of type 'integer'"* ]]
}

@test "schema: doc/results.md names every field of the schema, and no field it lacks" {
	run validate --doc "$TOP_SRCDIR/doc/results.md"
	[ "$status" -eq 0 ]
	[[ "$output" == *" 0 differences" ]]
	sed 's/`pids_peak`/pids_peak/; s/`steal_pct`/`steal_percent`/' "$TOP_SRCDIR/doc/results.md" >drifted.md
	run validate --doc drifted.md
	[ "$status" -eq 1 ]
	[[ "$output" == *"the schema's field pids_peak is not named"* ]]
	[[ "$output" == *'`steal_percent` is no field of the schema'* ]]
}

@test "schema: figures.h describes every member of a run's part, with the schema's types, and nothing else" {
	"$TOP_BUILDDIR/tests/unit/figures.t" --list >table
	[ "$(wc -l <table)" -ge 50 ]
	# the schema's members from "status" on: what a run measured and how it ended
	jq -r '.properties | to_entries | . as $e
	    | ($e | map(.key) | index("status")) as $i | $e[$i:][]
	    | "\(.key) \(.value.type | if type == "array" then join("|") else . end)"' \
	    "$TOP_SRCDIR/doc/results.schema.json" | sort >schema
	awk '{ print $1, $2 } $3 != "-" { print $3, "string" }' table | sort >described
	run diff schema described
	[ "$status" -eq 0 ]
	# and a planted difference is seen
	sed 's/^wall_s number|null/wall_s integer/' described >planted
	run ! diff -q schema planted
}

# key_literals DIR...: "file:line:key" for each results line member, at
# any depth (a property of the schema, of the line or of an object in
# it), spelled as a JSON member's name in C under DIR (a json_k*(j, "key",
# a jget*(o, "key", a column's .key = "key" and their kin) outside
# contest/record/, the layer that spells them once.
key_literals() {
	jq -r '[.. | objects | .properties? // empty | keys[]] | unique[]' \
	    "$TOP_SRCDIR/doc/results.schema.json" >keys
	find "$@" -name '*.c' ! -path '*/contest/record/*' -print0 | sort -z |
	    xargs -0 grep -HnoE '(\((&?j|o|pr|p|id|lat|vm|obj|def|c|m), |\b(column|series_col)\([a-z]+, |\.key = )"[a-z_0-9-]+"' |
	    awk -F'"' 'NR == FNR { k[$1]; next } ($2 in k) { key = $2; sub(/:[^:]*$/, ""); print $0 ":" key }' keys -
}

@test "schema: a results member, at any depth, is spelled once, in contest/record, but for the report's and history's own" {
	key_literals "$TOP_SRCDIR/contest" >found
	# the report's and compare's JSON name things of their own as a line
	# names a member: the row ("kernel": its label, @host or #n where that
	# is ambiguous), the document's own schema number, a cell's runs, its
	# loads and a counter's unit, and the load spec a block is ("load");
	# its columns, the loads a cell did and its pooled Met%; history's,
	# its own schema number, a night's runs and its list of series (a
	# figure over nights, not a run's samples); plan's, its own schema
	# number and a row's label, load, runs and a run's cost
	run grep -vE '/report_json\.c:[0-9]+:(kernel|schema|load|loads|runs|unit)$|/columns\.c:[0-9]+:(loads|met_pct)$|/history\.c:[0-9]+:(schema|series|runs)$|/plan\.c:[0-9]+:(schema|label|load|runs|run_s)$' found
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	# a planted spelling is seen, at the top and in a nested object
	mkdir -p tree/contest/run
	printf 'void f(struct json *j) { json_kstr(j, "host", "x"); }\n' >tree/contest/run/planted.c
	printf 'void g(struct json *j) { json_kstr(j, "regex", "x"); }\n' >tree/contest/run/nested.c
	run -0 key_literals tree/contest
	[ "${lines[0]}" = "tree/contest/run/nested.c:1:regex" ]
	[ "${lines[1]}" = "tree/contest/run/planted.c:1:host" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "schema: keys.h names the members of a line's objects as the schema has them, and config's are contest run's options" {
	"$TOP_BUILDDIR/tests/unit/figures.t" --nested >nested
	[ "$(wc -l <nested)" -ge 60 ]
	# each object's members at any depth below it, as the schema has them
	jq -r '.properties | to_entries[] | .key as $o |
	    [.value | .. | objects | .properties? // empty | keys[]] | unique[] | "\($o) \(.)"' \
	    "$TOP_SRCDIR/doc/results.schema.json" >schema
	run grep -vxF -f schema nested
	[ "$status" -eq 1 ]
	# the objects whose every member keys.h spells: both ways
	for o in controllers job_metric_defs series vmstat psi_some_s job_identity; do
		run diff <(grep "^$o " schema) <(grep "^$o " nested | sort)
		[ "$status" -eq 0 ]
	done
	# a member the schema lacks is seen
	echo "vmstat pgsteal" >>nested
	run -0 grep -vxF -f schema nested
	[ "$output" = "vmstat pgsteal" ]
	# config: one member for each of contest run's options, named as its
	# table spells them, and no other
	run -0 contest run --help
	sed -nE 's/^  (-[a-z], |    )--([a-z-]+).*/\2/p' <<<"$output" | grep -vx help | sort >options
	[ "$(wc -l <options)" -ge 25 ]
	jq -r '.properties.config.properties | keys[]' "$TOP_SRCDIR/doc/results.schema.json" | sort >config
	run diff options config
	[ "$status" -eq 0 ]
}

@test "schema: keys.h names every member of a line before status, in the schema's order, and nothing else" {
	"$TOP_BUILDDIR/tests/unit/figures.t" --session >session
	[ "$(wc -l <session)" -ge 40 ]
	jq -r '.properties | keys_unsorted | .[:index("status")][]' \
	    "$TOP_SRCDIR/doc/results.schema.json" >schema
	run diff schema session
	[ "$status" -eq 0 ]
	# a member the layer lacks, or one the schema lacks, is seen
	sed '/^sweep$/d' session >planted
	run ! diff -q schema planted
	sed 's/^host$/hostname/' session >planted
	run ! diff -q schema planted
	# and the statuses a run ends with, as the schema's enum has them
	"$TOP_BUILDDIR/tests/unit/figures.t" --status >status
	jq -r '.properties.status.enum[]' "$TOP_SRCDIR/doc/results.schema.json" >enum
	run diff enum status
	[ "$status" -eq 0 ]
	[ "$(wc -l <status)" -eq 7 ]
}

@test "schema: what a test stored is kept for its file's one check, and a wrong line there fails that check, naming the test" {
	mkdir -p t/results t/.json-out f
	contest -o t/results --warmup 0 -n 1 --lead 0 -- true >/dev/null 2>&1
	contest report -f t/results --format json >/dev/null
	mv "$BATS_TEST_TMPDIR"/.json-out/report.* t/.json-out/
	# the keep and the check as a file with this test's number would
	BATS_FILE_TMPDIR=$BATS_TEST_TMPDIR/f schema_keep "$BATS_TEST_TMPDIR/t"
	[ -s "f/.schema/$BATS_TEST_NUMBER/results/results.jsonl" ]
	[ "$(ls f/.schema/"$BATS_TEST_NUMBER"/.json-out/report.* | wc -l)" -eq 1 ]
	run -0 schema_check "$BATS_TEST_TMPDIR/f" 3>/dev/null
	grep -q '^validate-json: .* 0 invalid' f/.schema-check
	# a line with a field of the wrong type, in what the test stored
	jq -c '.wall_s = "slow"' t/results/results.jsonl >> "f/.schema/$BATS_TEST_NUMBER/results/results.jsonl"
	run -1 schema_check "$BATS_TEST_TMPDIR/f" 3>/dev/null
	grep -q "^$BATS_TEST_TMPDIR/f/.schema/$BATS_TEST_NUMBER/results/results.jsonl:2: .*wall_s" f/.schema-check
	rm -rf t f .json-out	# planted: not this test's results
	# and the suite's own wiring: a file whose test stores a wrong line
	# fails at its end, naming the test
	mkdir p
	# (printf: a line that starts with @test would be this file's, to bats)
	printf '%s\n' "load '$TOP_SRCDIR/tests/helpers'" \
	    '@test "stores a wrong line" {' \
	    '	mkdir -p "$CONTEST_RESULTS"' \
	    "	echo '{\"schema\": 1, \"wall_s\": \"slow\"}' >\"\$R\"" \
	    '}' '@test "stores nothing" {' '	true' '}' >p/planted.bats
	run -1 env -u BATS_TEST_TIMEOUT bats --tap p/planted.bats
	[ "${lines[1]}" = "ok 1 stores a wrong line" ]
	[ "${lines[2]}" = "ok 2 stores nothing" ]
	[[ "$output" == *"/.schema/1/results/results.jsonl:1: "* ]]
	[[ "$output" == *"not ok 3 teardown_file failed"* ]]
	rm -rf p
}
