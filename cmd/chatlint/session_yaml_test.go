package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The proxy-log session rules (session-id-mismatch, timestamp-not-increasing,
// trailing-short-entry, role-sequence-mismatch, record-missing,
// proxy-http-error) and the ShareGPT rules (sharegpt-function-call-invalid,
// sharegpt-tools-invalid) moved from Rego (policies/integrity/session.rego,
// sharegpt.rego) to YAML (rules/integrity/session.yaml, sharegpt.yaml).
// testdata/integrity-session-before is the integrity pack as it was before
// that move: the built-in pack must report exactly its findings, under both
// profiles, on every fixture of every pack, on the shared sample data, on the
// cases of the removed Rego unit tests (session_test.rego) written as
// proxy-log sessions, on every pair of short role traces, and on the ShareGPT
// cases of testdata/sharegpt-cases.jsonl.
func TestIntegrityYAMLSessionsMatchRego(t *testing.T) {
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions")
	writeSessionCases(t, sessions)
	traces := filepath.Join(dir, "traces")
	writeTraceChain(t, traces)
	// The findings each case set must have (default profile), so that a
	// comparison of two empty lists cannot pass for one of the rules.
	wantAtLeast := map[string]map[string]int{
		"session cases": {"session-id-mismatch": 3, "timestamp-not-increasing": 10, "trailing-short-entry": 2,
			"role-sequence-mismatch": 4, "record-missing": 1, "proxy-http-error": 3},
		"role traces": {"role-sequence-mismatch": 1000},
		"sharegpt":    {"sharegpt-function-call-invalid": 4, "sharegpt-tools-invalid": 4},
	}
	equivalence{
		pack:     "integrity",
		before:   filepath.Join("testdata", "integrity-session-before"),
		profiles: []string{"default", "export"},
		// Written after the move (issue 37: xLAM records).
		newer: map[string]bool{"xlam-answers-invalid": true, "xlam-tools-invalid": true,
			"message-repeated": true, "tool-call-missing-id": true, "tool-results-out-of-order": true},
		inputs: map[string][]string{
			"session cases": {sessions},
			"role traces":   {traces},
			"sharegpt":      {filepath.Join("testdata", "sharegpt-cases.jsonl")},
		},
		check: func(t *testing.T, name, profile string, now []jsonFinding) {
			if profile != "default" {
				return
			}
			counts := ruleCounts(now, false)
			for rule, n := range wantAtLeast[name] {
				if counts[rule] < n {
					t.Errorf("%s: %d findings of %s, want at least %d", name, counts[rule], rule, n)
				}
			}
		},
	}.run(t)
}

// entry is one proxy-log line: a session id and timestamp (omitted when
// absent is set), the request's role trace, and optionally a status.
type entry struct {
	sid, ts any
	noSID   bool
	noTS    bool
	roles   []any // nil with invalid: request.messages is not a list
	invalid bool
	status  int
}

// messageOf is a request message whose role-trace token is tok (S, U, T,
// Ac, At, Act, A; anything else is written as the role).
func messageOf(tok any) map[string]any {
	call := []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "f", "arguments": "{}"}}}
	switch tok {
	case "S":
		return map[string]any{"role": "system", "content": "s"}
	case "U":
		return map[string]any{"role": "user", "content": "u"}
	case "T":
		return map[string]any{"role": "tool", "tool_call_id": "c1", "content": "r"}
	case "Ac":
		return map[string]any{"role": "assistant", "content": "a"}
	case "At":
		return map[string]any{"role": "assistant", "tool_calls": call}
	case "Act":
		return map[string]any{"role": "assistant", "content": "a", "tool_calls": call}
	case "A":
		return map[string]any{"role": "assistant"}
	}
	return map[string]any{"role": tok, "content": "x"}
}

func (e entry) line() string {
	rec := map[string]any{}
	if !e.noSID {
		rec["session_id"] = e.sid
	}
	if !e.noTS {
		rec["timestamp"] = e.ts
	}
	msgs := []any{}
	for _, r := range e.roles {
		msgs = append(msgs, messageOf(r))
	}
	if e.invalid {
		rec["request"] = map[string]any{"messages": "not a list"}
	} else {
		rec["request"] = map[string]any{"messages": msgs}
	}
	if e.status != 0 {
		rec["response"] = map[string]any{"status": e.status}
	}
	b, _ := json.Marshal(rec)
	return string(b)
}

func words(s string) []any {
	var out []any
	for _, w := range strings.Fields(s) {
		out = append(out, w)
	}
	return out
}

// seq builds a session whose entries have session id "s1", the given
// timestamps and role traces (one per entry).
func seq(ts []any, traces ...string) []entry {
	var out []entry
	for i, tr := range traces {
		e := entry{sid: "s1", roles: words(tr)}
		if i < len(ts) {
			e.ts = ts[i]
		} else {
			e.noTS = true
		}
		out = append(out, e)
	}
	return out
}

func writeSession(t *testing.T, dir, name string, es []entry) {
	t.Helper()
	var b strings.Builder
	for _, e := range es {
		b.WriteString(e.line())
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSessionCases writes the cases of the removed session_test.rego (and
// the edges of the forms that replaced its helpers) as proxy-log sessions,
// one file each.
func writeSessionCases(t *testing.T, dir string) {
	n := func(xs ...any) []any { return xs }
	cases := map[string][]entry{
		"clean": seq(n("2024-05-01T10:00:00Z", "2024-05-01T10:00:05Z", "2024-05-01T10:00:09Z"), "S U", "S U At T", "S U At T Ac U"),
		"session-ids": {
			{sid: "s1", ts: 1, roles: words("U")}, {sid: "s2", ts: 2, roles: words("U Ac")},
			{noSID: true, ts: 3, roles: words("U Ac U")}, {sid: "s1", ts: 4, roles: words("U Ac U Ac")},
			{sid: nil, ts: 5, roles: words("U Ac U Ac U")}, {sid: "<a&b>", ts: 6, roles: words("U Ac U Ac U Ac")},
		},
		"session-ids-first-missing": {
			{noSID: true, roles: words("U")}, {sid: nil, roles: words("U Ac")}, {noSID: true, roles: words("U Ac U")},
			{sid: 1, roles: words("U Ac U Ac")},
		},
		"session-ids-numbers": {
			{sid: 1, roles: words("U")}, {sid: 1.0, roles: words("U Ac")}, {sid: json.Number("1.0"), roles: words("U Ac U")},
			{sid: json.Number("1e0"), roles: words("U Ac U Ac")}, {sid: []any{"x"}, roles: words("U Ac U Ac U")},
			{sid: map[string]any{"b": 1, "a": "<"}, roles: words("U Ac U Ac U A")},
		},
		"ts-offsets-increasing": seq(n("2024-05-01T10:00:00+02:00", "2024-05-01T09:30:00+01:00", "2024-05-01T08:45:00Z"), "U", "U Ac", "U Ac U"),
		"ts-offsets-not-increasing": seq(n("2024-05-01T10:00:00+02:00", "2024-05-01T09:30:00+01:00", "2024-05-01T08:15:00.250Z",
			"2024-05-01T03:15:00.25-05:00"), "U", "U Ac", "U Ac U", "U Ac U Ac"),
		"ts-variants":           seq(n("2024-05-01 08:00:00", "2024-05-01t08:00:01,5+0000", "2024-05-01T08:00:01.5z"), "U", "U Ac", "U Ac U"),
		"ts-numbers":            seq(n(1760696744462, 1760696744463, 1760696744463, 1.5, json.Number("0.5e0"), json.Number("1e400"), json.Number("2e400")), "U", "U Ac", "U Ac U", "U Ac U Ac", "U Ac U Ac U", "U Ac U Ac U Ac", "U Ac U Ac U Ac U"),
		"ts-plain":              seq(n("2024-05-01T10:00:00.100Z", "2024-05-01T10:00:00.200Z", "2024-05-01T10:00:01.000Z"), "U", "U Ac", "U Ac U"),
		"ts-beyond-nanoseconds": seq(n("2024-05-01T10:00:00.0000000001Z", "2024-05-01T10:00:00.0000000002Z"), "U", "U Ac"),
		"ts-uncomparable": append(seq(n("2024-05-01T10:00:00Z", 5, "yesterday"), "U", "U Ac", "U Ac U"),
			entry{sid: "s1", noTS: true, roles: words("U Ac U Ac")}, entry{sid: "s1", ts: nil, roles: words("U Ac U Ac U")},
			entry{sid: "s1", ts: true, roles: words("U Ac U Ac U Ac")}, entry{sid: "s1", ts: []any{1}, roles: words("U Ac U Ac U Ac U")}),
		"ts-edges": seq(n("2024-02-29T10:00:00Z", "2024-02-30T09:00:00Z", "2024-02-29T09:00:00Z", "2024-13-01T00:00:00Z",
			"0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", " 2024-03-01T00:00:00+0530 ", "2024-03-01T00:00:00+05:30",
			"2024-02-29T18:29:59.999999999999Z", "2024-02-29T18:30:00-00:00", "2024-02-29T23:59:60Z", "2024-02-29T18:30:00", "2024-02-29T18:30:00+24:00",
			"2024-02-29T18:30:00.Z", "2024-02-29T18:30Z", "1677-09-21T00:12:43.145224191Z", "1677-09-21T00:12:43.145224192Z", "2262-04-11T23:47:16.854775807Z", "2262-04-11T23:47:16.854775808Z"),
			"U", "U A", "U A U", "U A U A", "U A U A U", "U A U A U A", "U A U A U A U", "U A U A U A U A", "U A U A U A U A U",
			"U A U A U A U A U A", "U A U A U A U A U A U", "U A U A U A U A U A U A", "U A U A U A U A U A U A U", "U A U A U A U A U A U A U A",
			"U A U A U A U A U A U A U A U", "U A U A U A U A U A U A U A U A", "U A U A U A U A U A U A U A U A U", "U A U A U A U A U A U A U A U A U A",
			"U A U A U A U A U A U A U A U A U A U"),
		"trailing-short":        seq(nil, "S U", "S U At T", "S U"),
		"trailing-equal":        seq(nil, "S U", "S U"),
		"trailing-max-earlier":  seq(nil, "U Ac", "U Ac U Ac U", "U Ac U", "U Ac U Ac U", "U Ac"),
		"role-ac-at-to-act":     seq(nil, "S U Ac At T", "S U Act T Ac U"),
		"role-act-to-ac-at":     seq(nil, "S U Act T", "S U Ac At T Ac"),
		"role-plain-prefixes":   seq(nil, "S U Ac", "S U Ac At T Ac At T", "S U Act T Ac At T A U", "S U Act T Act T A U Ac"),
		"role-mismatches":       seq(nil, "S U", "S U Ac U", "U Ac U Ac U", "U Ac U At T U", "U Ac U At T U Ac"),
		"role-ac-then-act":      seq(nil, "S U Ac", "S U Act T"),
		"role-other-roles":      {{sid: "s1", roles: []any{"U", "bot", 5.0}}, {sid: "s1", roles: []any{"U", "bot", 7.0, "developer"}}, {sid: "s1", roles: []any{"U", "bot", 7.0, "developer", "S"}}},
		"role-skips-invalid":    {{sid: "s1", ts: 1, roles: words("S U")}, {sid: "s1", ts: 2, invalid: true}, {sid: "s1", ts: 3, roles: words("S U Ac U")}},
		"role-empty-traces":     seq(nil, "", "", "U", "", "U"),
		"record-missing":        {{sid: "s1", ts: 1, invalid: true}, {sid: "s1", ts: 2, invalid: true}},
		"record-missing-single": {{sid: "s1", invalid: true}},
		"http-errors": {{sid: "s1", ts: 1, roles: words("U"), status: 200}, {sid: "s1", ts: 2, roles: words("U Ac"), status: 399},
			{sid: "s1", ts: 3, roles: words("U Ac U"), status: 400}, {sid: "s1", ts: 4, roles: words("U Ac U Ac"), status: 503},
			{sid: "s1", ts: 5, invalid: true, status: 401}},
	}
	// The fast path of the Rego rule held only for UTC strings of one
	// layout in strictly increasing order: every pair it did not take.
	for i, p := range [][2]any{
		{"2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"},
		{"2024-05-01T10:00:01Z", "2024-05-01T10:00:00Z"},
		{"2024-05-01T10:00:00Z", "2024-05-01T10:00:00.5Z"},
		{"2024-05-01T10:00:00+00:00", "2024-05-01T10:00:01+00:00"},
		{"2024-05-01 10:00:00Z", "2024-05-01 10:00:01Z"},
		{"2024-05-01T10:00:00.0000000001Z", "2024-05-01T10:00:00.0000000002Z"},
		{1, 2},
		{2, 1},
		{"2024-05-01T10:00:01.5Z", "2024-05-01T10:00:01.40Z"},
	} {
		cases[fmt.Sprintf("ts-pair-%d", i)] = seq(n(p[0], p[1]), "U", "U Ac")
	}
	for name, es := range cases {
		writeSession(t, dir, name, es)
	}
}

// writeTraceChain writes sessions in which every ordered pair of role
// traces of up to three tokens over U, Ac, At and Act (and the empty trace)
// follow each other, each ending with an entry with the session maximum, so
// that role-sequence-mismatch compares every pair: one session per earlier
// trace, so that no document is big enough to meet the record timeout on a
// loaded machine.
func writeTraceChain(t *testing.T, dir string) {
	toks := []string{"U", "Ac", "At", "Act"}
	traces := [][]any{{}}
	for l := 1; l <= 3; l++ {
		var next [][]any
		for _, tr := range traces {
			if len(tr) != l-1 {
				continue
			}
			for _, tok := range toks {
				next = append(next, append(append([]any{}, tr...), tok))
			}
		}
		traces = append(traces, next...)
	}
	for i, p := range traces {
		var es []entry
		for _, q := range traces {
			es = append(es, entry{sid: "s1", noTS: true, roles: p}, entry{sid: "s1", noTS: true, roles: q})
		}
		es = append(es, entry{sid: "s1", noTS: true, roles: words("U Ac U Ac")})
		writeSession(t, dir, fmt.Sprintf("chain-%02d", i), es)
	}
}
